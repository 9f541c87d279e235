// The "limit": a bare node:http server that answers the same JSON-RPC shapes as the contestants with
// nothing in between — no validation, no framework. Nothing real can be faster on this machine.
import { randomBytes } from 'node:crypto';
import http from 'node:http';

interface Task {
  taskId: string;
  status: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
}

const tasks = new Map<string, Task>();
const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'limit', version: '1.0.0' } };

function answer(msg: { id: unknown; method: string; params: Record<string, any> }): { status: number; body: unknown } {
  const { id, method, params } = msg;
  if (method === 'tasks/get') {
    const task = tasks.get(params.taskId);
    if (!task) return { status: 200, body: { jsonrpc: '2.0', id, error: { code: -32602, message: 'Task not found' } } };
    return {
      status: 200,
      body: { jsonrpc: '2.0', id, result: { resultType: 'complete', ...task, _meta: serverInfo } },
    };
  }
  if (method === 'tools/call' && params.name === 'greet') {
    const text = `Hello, ${String(params.arguments?.name)}!`;
    return {
      status: 200,
      body: {
        jsonrpc: '2.0',
        id,
        result: { resultType: 'complete', content: [{ type: 'text', text }], _meta: serverInfo },
      },
    };
  }
  if (method === 'tools/call' && params.name === 'slow_compute') {
    const now = new Date().toISOString();
    const task = {
      taskId: randomBytes(18).toString('base64url'),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: 3_600_000,
      pollIntervalMs: 250,
    };
    tasks.set(task.taskId, task);
    return { status: 200, body: { jsonrpc: '2.0', id, result: { resultType: 'task', ...task, _meta: serverInfo } } };
  }
  return { status: 404, body: { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } } };
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let reply;
    try {
      reply = answer(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      reply = { status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } } };
    }
    const text = JSON.stringify(reply.body);
    res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? '127.0.0.1');
