import type { PoolClient, QueryConfig, QueryResult } from 'pg';

/**
 * The one place the store reaches into `pg`'s private parts, because pg has no public way to do this on a client
 * it did not create: a pooled client of the app's TypeORM pool is put in pipeline mode (pg ≥ 8.23: `pipeline`,
 * documented as a read-only flag set by the `pipeline` option of `new Client()`, which the pool owner — TypeORM —
 * does not pass) only while one batch is in flight, and its socket (`connection.stream`) is corked meanwhile, so
 * the batch leaves in one write. A pipeline on for good would need a pool of our own (more connections to the
 * database); sent one after another, a capped create's transaction costs four round trips instead of one, with
 * the cap lock held across them (bench/results/2026-11-30-profiles.md). `test/store/pg-shape.e2e-spec.ts` fails
 * when the shape below changes; where it is missing, queries go one after another (docs/private-reaches.md).
 */
type Pipelinable = PoolClient & {
  pipeline?: unknown;
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
};

/** Whether `sendTogether` can pipeline on `client` (pg's pipeline flag is there, off, and writable). */
export function canPipeline(client: PoolClient): boolean {
  const c = client as Pipelinable;
  return c.pipeline === false && Object.getOwnPropertyDescriptor(c, 'pipeline')?.writable === true;
}

/**
 * Sends queries that need no answer in between (a whole short transaction) on `client` in one go: in pg's
 * pipeline mode and with the socket corked, they leave in one write and the server runs them back to back.
 * Where the driver has no pipeline mode they are sent one after another. Rejects with the first query's error
 * (the server then ends the transaction itself).
 */
export async function sendTogether(client: PoolClient, queries: QueryConfig[]): Promise<QueryResult[]> {
  if (!canPipeline(client)) {
    const results: QueryResult[] = [];
    for (const q of queries) results.push(await client.query(q));
    return results;
  }
  const c = client as Pipelinable;
  const stream = c.connection?.stream;
  c.pipeline = true;
  let settled: PromiseSettledResult<QueryResult>[];
  try {
    stream?.cork?.();
    let sent: Promise<QueryResult>[];
    try {
      sent = queries.map((q) => client.query(q));
    } finally {
      stream?.uncork?.();
    }
    settled = await Promise.allSettled(sent);
  } finally {
    // Every query has its answer (or the connection is gone): the client goes back to the pool as it came.
    c.pipeline = false;
  }
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<QueryResult>).value);
}
