// The official SDK peer: @modelcontextprotocol/server 2.4.0's createMcpHandler + toNodeHandler (a
// fresh McpServer per request, as the SDK's stateless 2026-07-28 serving does), a minimal tasks/get
// on the low-level server (the 3-argument form the SDK requires for methods it does not know), and
// the same trivial tools as the other contestants.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { createMcpHandler, McpServer, ProtocolError } from '@modelcontextprotocol/server';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { z } from 'zod';

interface Task {
  taskId: string;
  status: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
}

const tasks = new Map<string, Task>();
const greetInput = z.object({ name: z.string() });
const computeInput = z.object({ seconds: z.number().min(0).max(3600), label: z.string().optional() });
const taskParams = { params: z.looseObject({ taskId: z.string() }) };

function buildServer(): McpServer {
  const server = new McpServer(
    { name: 'sdk-peer', version: '1.0.0' },
    { capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } } },
  );
  server.registerTool('greet', { description: 'Greets someone', inputSchema: greetInput }, async ({ name }) => ({
    content: [{ type: 'text', text: `Hello, ${name}!` }],
  }));
  server.registerTool('slow_compute', { description: 'Returns a task handle', inputSchema: computeInput }, async () => {
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
    return { resultType: 'task', ...task } as never;
  });
  server.server.setRequestHandler('tasks/get', taskParams, async (params: { taskId: string }) => {
    const task = tasks.get(params.taskId);
    if (!task) throw new ProtocolError(-32602, 'Task not found');
    return { resultType: 'complete', ...task } as never;
  });
  return server;
}

const handler = toNodeHandler(createMcpHandler(buildServer));
const server = http.createServer((req, res) => void handler(req, res));
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 3101), process.env.HOST ?? '127.0.0.1');
