/**
 * Another app's writer on the module's database: one `pg` client committing one-row INSERTs (each its own
 * transaction) back to back. `pg` is loaded by name, as in databases.ts: the bench needs only its runtime.
 */
export interface PgWriter {
  /** Commits made in `ms` of writing (counted once each committed). */
  commitsIn(ms: number): Promise<number>;
  close(): Promise<void>;
}

export async function startWriter(url: string): Promise<PgWriter> {
  const specifier = 'pg';
  const { default: pg } = (await import(specifier)) as {
    default: { Client: new (o: { connectionString: string }) => PgClient };
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('CREATE TABLE IF NOT EXISTS bench_writer (id bigserial PRIMARY KEY, at timestamptz, v int)');
  // Named: parsed and planned once, so the figure is the commit, not the parse.
  const insert = { name: 'bench_writer_insert', text: 'INSERT INTO bench_writer (at, v) VALUES (now(), $1)' };
  return {
    async commitsIn(ms) {
      const end = performance.now() + ms;
      let n = 0;
      while (performance.now() < end) await client.query({ ...insert, values: [n++] });
      return n;
    },
    close: () => client.end(),
  };
}

interface PgClient {
  connect(): Promise<void>;
  query(q: string | { name?: string; text: string; values?: unknown[] }): Promise<unknown>;
  end(): Promise<void>;
}
