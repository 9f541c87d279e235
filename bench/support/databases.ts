/**
 * A second, empty database in a running PostgreSQL cluster (one cluster, several stores that must not
 * see each other's tasks). `pg` is loaded by name: the bench needs only its runtime, not its types.
 */
export async function createDatabase(url: string, name: string): Promise<string> {
  const specifier = 'pg';
  const { default: pg } = (await import(specifier)) as {
    default: { Client: new (o: { connectionString: string }) => PgClient };
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}
