// The database's own limit: a bare node:http server over a `pg` pool that answers tasks/get with the module's
// SELECT (every column of the row, by primary key) and a task-creating tools/call with one plain INSERT of a
// row of the module's shape (autocommit, no cap), on a table made by the module's own migrations. No
// validation, no framework: what PostgreSQL and the driver cost per request on this machine.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { mcpTasksEntities, mcpTasksMigrations } from '@mcp-tasks/nestjs/typeorm';

const url = process.env.DATABASE_URL ?? '';
const setup = new DataSource({
  type: 'postgres',
  url,
  entities: mcpTasksEntities,
  migrations: mcpTasksMigrations,
  migrationsRun: true,
});
await setup.initialize();
await setup.destroy();

// The same pool size as the module's (TypeORM's default for pg: 10).
const pool = new pg.Pool({ connectionString: url, max: 10 });
const COLUMNS =
  'id, owner_key, tool, status, status_message, input_requests, input_responses, result, error, required_scopes, ' +
  'created_at, updated_at, expires_at, lease_owner, lease_expires_at';
const GET = { name: 'limit_get', text: `SELECT ${COLUMNS} FROM mcp_tasks WHERE id = $1` };
const INSERT = {
  name: 'limit_insert',
  text: `INSERT INTO mcp_tasks (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
};
const TTL = 3_600_000;
const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'pg-limit', version: '1.0.0' } };

type Row = { id: string; status: string; created_at: string; updated_at: string; expires_at: string | null };
const view = (r: Row) => ({
  taskId: r.id,
  status: r.status,
  createdAt: new Date(Number(r.created_at)).toISOString(),
  lastUpdatedAt: new Date(Number(r.updated_at)).toISOString(),
  ttlMs: TTL,
  pollIntervalMs: 250,
});

async function answer(msg: { id: unknown; method: string; params: Record<string, any> }) {
  const { id, method, params } = msg;
  if (method === 'tasks/get') {
    const { rows } = await pool.query<Row>({ ...GET, values: [String(params.taskId)] });
    if (!rows[0]) return { jsonrpc: '2.0', id, error: { code: -32602, message: 'Task not found' } };
    return { jsonrpc: '2.0', id, result: { resultType: 'complete', ...view(rows[0]), _meta: serverInfo } };
  }
  if (method === 'tools/call') {
    const now = Date.now();
    const taskId = randomBytes(18).toString('base64url');
    const args = JSON.stringify(params.arguments ?? {});
    const values = [taskId, 'anonymous', params.name, 'working', null, '{}', args, null, null, '[]'];
    await pool.query({ ...INSERT, values: [...values, now, now, now + TTL, null, null] });
    const task = { id: taskId, status: 'working', created_at: `${now}`, updated_at: `${now}`, expires_at: null };
    return { jsonrpc: '2.0', id, result: { resultType: 'task', ...view(task), _meta: serverInfo } };
  }
  return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const send = (status: number, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    let msg;
    try {
      msg = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    answer(msg).then(
      (body) => send(200, body),
      (err: Error) => send(500, { jsonrpc: '2.0', id: msg.id, error: { code: -32603, message: err.message } }),
    );
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? '127.0.0.1');
