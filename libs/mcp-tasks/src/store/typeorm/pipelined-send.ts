import type { PoolClient, QueryConfig, QueryResult } from 'pg';

/** The parts of a pg client that pipelining touches (pg 8.2x: `pipeline`; its connection's socket). */
type Pipelinable = PoolClient & {
  pipeline?: unknown;
  connection?: { stream?: { cork?: () => void; uncork?: () => void } };
};

/**
 * Sends queries that need no answer in between (a whole short transaction) on `client` in one go: in pg's
 * pipeline mode (pg ≥ 8.2x, the client's `pipeline` flag, on only while they are in flight) and with the
 * socket corked, they leave in one write and the server runs them back to back — the caps' lock is held
 * for the database's own work, not for round trips. Where the driver has no pipeline mode they are sent one
 * after another. Rejects with the first query's error (the server then ends the transaction itself).
 */
export async function sendTogether(client: PoolClient, queries: QueryConfig[]): Promise<QueryResult[]> {
  const c = client as Pipelinable;
  if (c.pipeline !== false || Object.getOwnPropertyDescriptor(c, 'pipeline')?.writable !== true) {
    const results: QueryResult[] = [];
    for (const q of queries) results.push(await client.query(q));
    return results;
  }
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
