import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { Injectable, Module, type INestApplication, type LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTasksModule, McpTool, MemoryTaskStore, type ToolContext } from '@mcp-tasks/nestjs';
import { exchange, initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { call, cancelTask, getTask, TASKS, VERSION } from './support/mcp-request.js';
import { until } from './support/until.js';

/** Tools that stop the ways tools do when their signal fires. */
@Injectable()
class StoppingTools {
  /** `AbortError` from a timer given the signal (its `cause` is the signal's reason). */
  @McpTool({ description: 'Sleeps on its signal', task: 'optional' })
  async sleeps(_args: object, ctx: ToolContext): Promise<string> {
    await sleep(60_000, undefined, { signal: ctx.signal });
    return 'woke';
  }

  /** The signal's reason, rethrown as is. */
  @McpTool({ description: 'Rethrows the reason it was stopped for', task: 'optional' })
  async rethrows(_args: object, ctx: ToolContext): Promise<string> {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    throw ctx.signal.reason;
  }

  /** Reports progress, then returns normally once stopped (as a tool that checks `ctx.cancelled` does). */
  @McpTool({ description: 'Reports, then returns when stopped', task: 'optional' })
  async reports(_args: object, ctx: ToolContext): Promise<string> {
    await ctx.progress(1, 2, 'half');
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    return 'stopped half way';
  }

  /** A real bug in its clean-up once stopped: not the abort. */
  @McpTool({ description: 'Fails in its clean-up once stopped', task: 'optional' })
  async breaks(_args: object, ctx: ToolContext): Promise<string> {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    const handle = undefined as unknown as { close(): void };
    handle.close();
    return 'unreachable';
  }
}

@Module({ providers: [StoppingTools] })
class StoppingToolsModule {}

type Line = { level: 'error' | 'warn' | 'log' | 'debug' | 'verbose'; text: string };
const lines: Line[] = [];
const keep =
  (level: Line['level']) =>
  (message: unknown, ...rest: unknown[]): void =>
    void lines.push({
      level,
      text: [message, ...rest].map((m) => (m instanceof Error ? m.stack : String(m))).join(' '),
    });
/** The app's own logger, as an app passes one to Nest: every level, in order. */
const logger: LoggerService = {
  error: keep('error'),
  warn: keep('warn'),
  log: keep('log'),
  debug: keep('debug'),
  verbose: keep('verbose'),
};
const loud = () => lines.filter((l) => l.level === 'error' || l.level === 'warn').map((l) => l.text);
const debugLines = (about: string) => lines.filter((l) => l.level === 'debug' && l.text.includes(about));

/** Two instances on one store, each with its own in-process bus: a cancel on one reaches the other by polling. */
async function instance(store: MemoryTaskStore): Promise<INestApplication> {
  const ref = await Test.createTestingModule({
    imports: [
      McpTasksModule.forRoot({ server: { name: 'stopping', version: '1' }, store, pollInterval: 100 }),
      StoppingToolsModule,
    ],
  }).compile();
  const app = ref.createNestApplication({ logger });
  await app.listen(0, '127.0.0.1');
  return app;
}

describe('a run stopped by its own signal logs one debug line, no error', () => {
  const store = new MemoryTaskStore();
  let a: INestApplication;
  let b: INestApplication;
  let legacyUrl: URL;
  let session: string;
  beforeAll(async () => {
    a = await instance(store);
    b = await instance(store);
    legacyUrl = new URL(`${(await a.getUrl()).replace('[::1]', '127.0.0.1')}/mcp`);
    session = (await initialize(legacyUrl, {})).session;
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });
  beforeEach(() => {
    lines.length = 0;
  });

  const started = async (tool: string): Promise<string> => {
    const id = (await call(a, tool, {}, { caps: TASKS })).body.result.taskId as string;
    await sleep(200); // running, waiting on its signal
    return id;
  };
  const statusOn2026 = async (id: string) => (await getTask(a, id)).body.result?.status as string | undefined;
  const stoppedQuietly = async (id: string, statusOf = statusOn2026) => {
    await until(`task ${id} cancelled`, async () => (await statusOf(id)) === 'cancelled');
    await until(`the debug line of ${id}`, () => debugLines(id).length > 0, 10_000);
    await sleep(200); // anything logged late would be here by now
    expect(loud()).toEqual([]);
    expect(debugLines(id).map((l) => l.text)).toEqual([expect.stringContaining(`task ${id} stopped (cancelled)`)]);
  };

  it.each(['sleeps', 'rethrows'])('%s: tasks/cancel on the instance running it', async (tool) => {
    const id = await started(tool);
    expect((await cancelTask(a, id)).body.result).toBeDefined();
    await stoppedQuietly(id);
  });

  it.each(['sleeps', 'rethrows'])('%s: cancelled through another instance (no bus between them)', async (tool) => {
    const id = await started(tool);
    expect((await cancelTask(b, id)).body.result).toBeDefined();
    await stoppedQuietly(id);
  });

  it.each(['sleeps', 'rethrows'])('%s: a 2025-11-25 task cancelled with tasks/cancel', async (tool) => {
    const created = await post(legacyUrl, request('tools/call', { name: tool, arguments: {}, task: {} }), {
      ...legacyHeaders(session),
    });
    const id = created.body.result.task.taskId as string;
    await sleep(200);
    const cancelled = await post(legacyUrl, request('tasks/cancel', { taskId: id }), legacyHeaders(session));
    expect(cancelled.body.result.status).toBe('cancelled');
    await stoppedQuietly(id, async (taskId) => {
      const got = await post(legacyUrl, request('tasks/get', { taskId }), legacyHeaders(session));
      return got.body.result?.status as string | undefined;
    });
  });

  it.each(['sleeps', 'rethrows'])(
    '%s: a call in the request stopped by notifications/cancelled (2025) gets no answer',
    async (tool) => {
      const requestId = `stop-${tool}`;
      const answer = exchange(legacyUrl, {
        body: request('tools/call', { name: tool, arguments: {} }, requestId),
        headers: legacyHeaders(session),
      });
      await sleep(200);
      const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } };
      expect((await post(legacyUrl, note, legacyHeaders(session))).status).toBe(202);
      // The receiver of a cancel sends nothing more for that request: its stream ends with no answer.
      const reply = await answer;
      await reply.ended;
      expect([reply.status, reply.headers['content-type']]).toEqual([200, 'text/event-stream']);
      expect(await reply.body()).toBeUndefined();
      expect(reply.frames.filter((f) => f.id === requestId)).toEqual([]);
      await until('the debug line', () => debugLines(`request ${requestId}`).length > 0, 10_000);
      await sleep(200);
      expect(loud()).toEqual([]);
      expect(debugLines(`request ${requestId}`).map((l) => l.text)).toEqual([
        expect.stringContaining(`tools/call ${tool} (request ${requestId}) stopped (cancelled)`),
      ]);
    },
  );

  it('a call streaming progress, cancelled (2025), ends its stream after the progress with no answer', async () => {
    const requestId = 'stop-reports';
    const params = { name: 'reports', arguments: {}, _meta: { progressToken: 'p' } };
    const answer = await exchange(legacyUrl, {
      body: request('tools/call', params, requestId),
      headers: legacyHeaders(session),
    });
    await answer.next((f) => f.method === 'notifications/progress');
    const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId } };
    expect((await post(legacyUrl, note, legacyHeaders(session))).status).toBe(202);
    await answer.ended;
    expect(answer.frames.map((f) => f.method ?? f.id)).toEqual(['notifications/progress']);
    expect(loud()).toEqual([]);
  });

  it.each(['sleeps', 'rethrows'])('%s: a call in the request whose client closed the connection', async (tool) => {
    const requestId = `gone-${tool}`;
    const url = new URL(`${(await a.getUrl()).replace('[::1]', '127.0.0.1')}/mcp`);
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: requestId,
      method: 'tools/call',
      params: {
        name: tool,
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': 'tools/call',
        'mcp-name': tool,
      },
    });
    req.on('error', () => undefined); // it is closed on purpose
    req.end(body);
    await sleep(300);
    req.destroy();
    await until('the debug line', () => debugLines(`request ${requestId}`).length > 0, 10_000);
    await sleep(200);
    expect(loud()).toEqual([]);
    expect(debugLines(`request ${requestId}`).map((l) => l.text)).toEqual([
      expect.stringContaining(`tools/call ${tool} (request ${requestId}) stopped (connection closed)`),
    ]);
  });

  it('a bug hit once cancelled (not the abort): the task stays cancelled, the library says it at debug', async () => {
    const id = await started('breaks');
    await cancelTask(a, id);
    await until(`task ${id} cancelled`, async () => (await getTask(a, id)).body.result?.status === 'cancelled');
    await until(`the debug line of ${id}`, () => debugLines(id).length > 0, 10_000);
    await sleep(200);
    // A bug is still an error where Nest reports any tool's error; the library no longer calls the task failed.
    expect(loud()).toEqual([
      expect.stringMatching(/^TypeError: Cannot read properties of undefined[^]*ExceptionsHandler$/),
    ]);
    expect(debugLines(id).map((l) => l.text)).toEqual([
      expect.stringMatching(
        new RegExp(`^task ${id} stopped \\(cancelled\\); what it threw then is dropped: TypeError`),
      ),
    ]);
    expect((await getTask(a, id)).body.result.status).toBe('cancelled');
  });
});
