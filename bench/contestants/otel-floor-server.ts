// The floor for telemetry's cost: a bare node:http server answering the CPU phase's requests (a sync `greet`
// tools/call, tasks/get of a working task, `bench_stats`) with the module's spans and attributes — `tools/call
// <tool>` (server) with `execute_tool <tool>` (internal) in it, `tasks/get` (server) — each made active while its
// work runs, the plainest way: no framework, three promises a request. `MCP_BENCH_OTEL` and `MCP_BENCH_AB` register
// the fixture app's set-ups (fixture-app/otel-sdk.ts, otel-ab.ts). `MCP_BENCH_FLOOR_KB`: short-lived garbage made
// per request, as an app's request path makes some (the module: ~58 KB a tools/call with an SDK), which decides how
// often the young generation is scavenged, and so how often the spans a batch processor holds are copied.
import { context, SpanKind, trace, type Context } from '@opentelemetry/api';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { registerOtelAb } from '../fixture-app/otel-ab.js';
import { registerOtelSdk } from '../fixture-app/otel-sdk.js';

const mode = process.env.MCP_BENCH_OTEL;
if (process.env.MCP_BENCH_AB) registerOtelAb(process.env.MCP_BENCH_AB);
else if (mode) registerOtelSdk(mode);
const tracer = trace.getTracer('mcp-tasks');
const spans = !!process.env.MCP_BENCH_AB || (!!mode && mode !== 'context');
const garbage = Number(process.env.MCP_BENCH_FLOOR_KB ?? 0);
const kept: unknown[] = [];
/** Copied for each KB of garbage (a 1 KB array of small integers). */
const BLOCK = Array.from({ length: 120 }, (_, i) => i);

type Msg = { id: unknown; method: string; params: Record<string, any> };
const tasks = new Map<string, { taskId: string; status: string }>();

/** `fn` in a span of `parent`, active while it runs (the module's `inSpan`, synchronous). */
function inSpan<T>(name: string, kind: SpanKind, attributes: Record<string, string>, fn: (c: Context) => T): T {
  const parent = context.active();
  if (!spans) return mode ? context.with(parent, fn, undefined, parent) : fn(parent);
  const span = tracer.startSpan(name, { kind, attributes }, parent);
  const active = trace.setSpan(parent, span);
  try {
    return context.with(active, fn, undefined, active);
  } finally {
    span.end();
  }
}

function answer({ id, method, params }: Msg): unknown {
  const rid = String(id);
  if (method === 'tasks/get') {
    const attributes = { 'mcp.method.name': method, 'mcp.task.id': String(params.taskId), 'jsonrpc.request.id': rid };
    return inSpan(method, SpanKind.SERVER, attributes, () => ({ resultType: 'complete', ...tasks.get(params.taskId) }));
  }
  const tool = String(params.name);
  const attributes = {
    'mcp.method.name': 'tools/call',
    'gen_ai.tool.name': tool,
    'jsonrpc.request.id': rid,
    'mcp.protocol.version': '2026-07-28',
  };
  return inSpan(`tools/call ${tool}`, SpanKind.SERVER, attributes, () => {
    if (tool === 'slow_compute') {
      const task = { taskId: randomBytes(18).toString('base64url'), status: 'working' };
      tasks.set(task.taskId, task);
      return { resultType: 'task', ...task };
    }
    const run = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': tool, 'mcp.method.name': 'tools/call' };
    return inSpan(`execute_tool ${tool}`, SpanKind.INTERNAL, { ...run, 'jsonrpc.request.id': rid }, () => ({
      resultType: 'complete',
      content: [{ type: 'text', text: tool === 'bench_stats' ? stats() : `Hello, ${String(params.arguments?.name)}!` }],
    }));
  });
}

/** What the bench reads of a contestant (`bench_stats`). */
const stats = () =>
  JSON.stringify({ pid: process.pid, cpu: process.cpuUsage(), memory: process.memoryUsage(), store: '-', bus: '-' });

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    // About 1 KB each, dropped with the next request.
    kept.length = 0;
    for (let i = 0; i < garbage; i++) kept.push(BLOCK.slice());
    const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Msg;
    const text = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: answer(msg) });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 3100), process.env.HOST ?? '127.0.0.1');
