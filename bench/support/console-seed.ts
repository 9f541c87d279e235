/**
 * Fills a demo's PostgreSQL `mcp_tasks` with `count` tasks as a busy server holds them after an hour:
 * created evenly over the last hour (and two minutes before it), 2 000 owners, 8 tools, 80 % completed,
 * 8 % failed, 6 % cancelled, 5 % working and 1 % waiting for input (live ones leased by two instances),
 * run times up to 2 minutes. One INSERT … SELECT, then ANALYZE (as autovacuum would soon do).
 */
export async function seedConsoleTasks(url: string, count: number, now: number): Promise<number> {
  const specifier = 'pg';
  const { default: pg } = (await import(specifier)) as {
    default: { Client: new (o: { connectionString: string }) => PgClient };
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const started = performance.now();
  try {
    await client.query(SEED, [count, now]);
    await client.query('ANALYZE mcp_tasks');
  } finally {
    await client.end();
  }
  return performance.now() - started;
}

interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}

export const SEED_TOOLS = [
  'export_report',
  'sync_inventory',
  'resize_images',
  'index_docs',
  'send_digest',
  'build_site',
  'scan_repo',
  'backup_db',
];

/** Owner keys as the library writes them (`owner/owner-key.ts`): the console takes them apart and filters them. */
const SEED = `
INSERT INTO mcp_tasks (id, owner_key, tool, status, status_message, input_requests, input_responses, result,
                       error, required_scopes, created_at, updated_at, expires_at, lease_owner, lease_expires_at)
SELECT 'seed-' || lpad(i::text, 7, '0'),
       'v1:["user-' || (i % 2000) || '","mcp-tasks-demo","bench-client","http://127.0.0.1/mcp"]',
       (ARRAY['${SEED_TOOLS.join("','")}'])[1 + i % 8],
       st,
       CASE WHEN live THEN 'step ' || (i % 10) END,
       CASE WHEN st = 'input_required'
            THEN '{"confirm":{"method":"elicitation/create","params":{"message":"Proceed?"}}}'::json
            ELSE '{}'::json END,
       '{}'::json,
       CASE WHEN st = 'completed' THEN '{"content":[{"type":"text","text":"done"}]}'::json END,
       CASE WHEN st = 'failed' THEN '{"code":-32603,"message":"Internal error"}'::json END,
       '[]'::json,
       created,
       CASE WHEN live THEN created ELSE created + (i * 7919) % 120000 END,
       created + 7200000,
       CASE WHEN live THEN 'bench-instance-' || (i % 2) END,
       CASE WHEN live THEN $2::bigint + 3600000 END
FROM generate_series(1, $1::int) AS i,
     LATERAL (SELECT CASE WHEN i % 100 < 5 THEN 'working'
                          WHEN i % 100 = 5 THEN 'input_required'
                          WHEN i % 100 < 14 THEN 'failed'
                          WHEN i % 100 < 20 THEN 'cancelled'
                          ELSE 'completed' END AS st) s,
     LATERAL (SELECT s.st IN ('working', 'input_required') AS live,
                     $2::bigint - 3720000 + (i::bigint * 3600000) / $1::int AS created) c`;
