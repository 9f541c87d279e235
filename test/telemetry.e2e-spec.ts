import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { EventEmitter2, EventEmitterModule } from '@nestjs/event-emitter';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import {
  LocalTaskEventBus,
  McpTaskEvents,
  MemoryTaskStore,
  type McpTasksModuleOptions,
  type TaskLimits,
  type TaskRecord,
} from '@mcp-tasks/nestjs';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, cancelTask, getTask, TASKS, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

const exporter = new InMemorySpanExporter();
const TRACE = '0af7651916cd43dd8448eb211c80319c';
const CALLER_SPAN = 'b7ad6b7169203331';
const traceparent = `00-${TRACE}-${CALLER_SPAN}-01`;

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => {
  trace.disable();
  context.disable();
  propagation.disable();
});
afterEach(() => exporter.reset());

const spans = (name: string): ReadableSpan[] => exporter.getFinishedSpans().filter((s) => s.name === name);
const parentOf = (s: ReadableSpan): string | undefined => s.parentSpanContext?.spanId;

describe('telemetry', () => {
  let app: INestApplication;
  const events: Array<[string, Record<string, unknown>]> = [];
  beforeAll(async () => {
    app = await createFixtureApp({}, [EventEmitterModule.forRoot({ wildcard: true })]);
    app.get(EventEmitter2).onAny((name: string | string[], payload: Record<string, unknown>) => {
      events.push([String(name), payload]);
    });
  });
  afterAll(() => app.close());
  afterEach(() => {
    events.splice(0);
  });

  it('a task: tools/call continues the caller trace; execute_tool is its child though it ends later', async () => {
    const res = await call(app, 'wait', { ms: 100 }, { caps: TASKS, meta: { traceparent }, id: 'r-1' });
    const taskId = res.body.result.taskId;
    await waitForTask(app, taskId);
    const [callSpan] = spans('tools/call wait');
    const [run] = spans('execute_tool wait');
    expect(callSpan.spanContext().traceId).toBe(TRACE);
    expect(parentOf(callSpan)).toBe(CALLER_SPAN);
    expect(callSpan.kind).toBe(SpanKind.SERVER);
    expect(callSpan.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'wait',
      'jsonrpc.request.id': 'r-1',
      'mcp.task.id': taskId,
      'mcp.protocol.version': '2026-07-28',
    });
    expect(run.spanContext().traceId).toBe(TRACE);
    expect(parentOf(run)).toBe(callSpan.spanContext().spanId);
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'wait',
      'mcp.task.id': taskId,
      'mcp.task.status': 'completed',
    });
    // The run outlives the request that started it.
    const endOf = (s: ReadableSpan) => s.endTime[0] * 1e9 + s.endTime[1];
    expect(endOf(run)).toBeGreaterThan(endOf(callSpan));
    expect(spans('tasks/get').length).toBeGreaterThan(0);
    expect(spans('tasks/get')[0].attributes).toMatchObject({ 'mcp.method.name': 'tasks/get', 'mcp.task.id': taskId });
  });

  it('a failure sets error status and records the exception (task and synchronous)', async () => {
    const res = await call(app, 'explode', {}, { caps: TASKS });
    await waitForTask(app, res.body.result.taskId);
    const [run] = spans('execute_tool explode');
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.events.map((e) => e.name)).toContain('exception');
    expect(run.attributes['mcp.task.status']).toBe('failed');
    exporter.reset();
    await call(app, 'explode', {});
    expect(spans('tools/call explode')[0].status.code).toBe(SpanStatusCode.ERROR);
    expect(spans('execute_tool explode')[0].status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a synchronous run, with and without interceptors of its own: execute_tool a child of tools/call', async () => {
    // `echo` has no interceptor or filter around it (the telemetry wraps its pipeline directly); `intercepted`
    // has one (the telemetry runs first in Nest's interceptor chain): the same spans either way, and it still runs.
    const echoed = await call(app, 'echo', { text: 'x' }, { id: 'e-1' });
    const intercepted = await call(app, 'intercepted', {}, { id: 'i-1' });
    expect(echoed.body.result.content[0].text).toBe('echo:x');
    expect(intercepted.body.result.content[0].text).toBe('[inner]');
    for (const [tool, id] of [
      ['echo', 'e-1'],
      ['intercepted', 'i-1'],
    ]) {
      const [callSpan] = spans(`tools/call ${tool}`);
      const [run] = spans(`execute_tool ${tool}`);
      expect(parentOf(run)).toBe(callSpan.spanContext().spanId);
      expect(run.attributes).toMatchObject({
        'gen_ai.tool.name': tool,
        'jsonrpc.request.id': id,
        'mcp.task.status': 'completed',
      });
      expect(run.status.code).toBe(SpanStatusCode.UNSET);
    }
  });

  it('events: start and stop for a synchronous run (no taskId)', async () => {
    await call(app, 'echo', { text: 'x' }, { id: 's-1' });
    expect(events.map(([n]) => n)).toEqual([McpTaskEvents.start, McpTaskEvents.stop]);
    expect(events[0][1]).toEqual({ tool: 'echo', server: 'fixture', requestId: 's-1' });
    expect(events[1][1]).toMatchObject({
      tool: 'echo',
      server: 'fixture',
      requestId: 's-1',
      status: 'completed',
      isError: false,
      durationMs: expect.any(Number),
    });
    expect(events[1][1].taskId).toBeUndefined();
  });

  it('events: start, exception and stop for a failing task, with its taskId', async () => {
    const res = await call(app, 'explode', {}, { caps: TASKS, id: 't-1' });
    const taskId = res.body.result.taskId;
    await waitForTask(app, taskId);
    expect(events.map(([n]) => n)).toEqual([McpTaskEvents.start, McpTaskEvents.exception, McpTaskEvents.stop]);
    expect(events[1][1]).toMatchObject({
      taskId,
      tool: 'explode',
      server: 'fixture',
      requestId: 't-1',
      error: expect.any(Error),
    });
    expect(events[2][1]).toMatchObject({ taskId, status: 'failed', isError: false });
  });

  it('events: a tool error stops completed with isError; a cancelled task stops cancelled', async () => {
    const tool = await call(app, 'toolFail', {}, { caps: TASKS });
    await waitForTask(app, tool.body.result.taskId);
    expect(events.find(([n]) => n === McpTaskEvents.stop)?.[1]).toMatchObject({ status: 'completed', isError: true });
    events.splice(0);
    const long = await call(app, 'wait', { ms: 30_000 }, { caps: TASKS });
    await getTask(app, long.body.result.taskId);
    await call(app, 'wait', { ms: 1 }); // lets the run start
    await cancelTask(app, long.body.result.taskId);
    await new Promise((r) => setTimeout(r, 100));
    expect(
      events.filter(([n, p]) => n === McpTaskEvents.stop && p.taskId === long.body.result.taskId)[0]?.[1],
    ).toMatchObject({ status: 'cancelled' });
  });

  it('a tool error result: tool_error on the tools/call span; arguments failing the DTO too, with no run', async () => {
    await call(app, 'toolFail', {});
    expect(spans('tools/call toolFail')[0].attributes).toMatchObject({
      'mcp.result.type': 'complete',
      'error.type': 'tool_error',
    });
    expect(spans('execute_tool toolFail')[0].attributes['error.type']).toBe('tool_error');
    // A successful response: the span's status stays unset, as for any tool error result.
    expect(spans('tools/call toolFail')[0].status.code).toBe(SpanStatusCode.UNSET);
    exporter.reset();
    events.splice(0);
    const invalid = await call(app, 'wait', { ms: 'soon' }, { caps: TASKS });
    expect(invalid.body.result.isError).toBe(true);
    const [span] = spans('tools/call wait');
    expect(span.attributes).toMatchObject({ 'mcp.result.type': 'complete', 'error.type': 'tool_error' });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // The tool never ran: no execute_tool span, no start or stop event.
    expect(spans('execute_tool wait')).toEqual([]);
    expect(events).toEqual([]);
    await call(app, 'echo', { text: 'x' });
    expect(spans('tools/call echo')[0].attributes['error.type']).toBeUndefined();
  });
});

describe('telemetry: false', () => {
  it('emits no events and no spans', async () => {
    const app = await createFixtureApp({ telemetry: false }, [EventEmitterModule.forRoot({ wildcard: true })]);
    const seen: string[] = [];
    app.get(EventEmitter2).onAny((n: string | string[]) => seen.push(String(n)));
    try {
      const res = await call(app, 'wait', { ms: 1 }, { caps: TASKS, meta: { traceparent } });
      await waitForTask(app, res.body.result.taskId);
      expect(seen).toEqual([]);
      expect(exporter.getFinishedSpans()).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('telemetry on with nobody observing', () => {
  it('runs without spans or events, and uses a listener or an SDK that arrives later from the next run', async () => {
    trace.disable();
    const app = await createFixtureApp({}, [EventEmitterModule.forRoot()]);
    try {
      const first = await call(app, 'echo', { text: 'a' });
      expect(first.body.result.content).toEqual([{ type: 'text', text: 'echo:a' }]);
      expect(exporter.getFinishedSpans()).toEqual([]);

      const stops: unknown[] = [];
      app.get(EventEmitter2).on(McpTaskEvents.stop, (payload: unknown) => stops.push(payload));
      await call(app, 'echo', { text: 'b' }, { id: 'late-listener' });
      expect(stops).toEqual([
        expect.objectContaining({ tool: 'echo', requestId: 'late-listener', status: 'completed' }),
      ]);
      expect(exporter.getFinishedSpans()).toEqual([]);

      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      await call(app, 'echo', { text: 'c' }, { meta: { traceparent } });
      expect(spans('tools/call echo').map((s) => s.spanContext().traceId)).toEqual([TRACE]);
      expect(spans('execute_tool echo')).toHaveLength(1);
      expect(stops).toHaveLength(2);
    } finally {
      await app.close();
    }
  });
});

/** Cancels a task in the store right after creating it, before its run starts (as another instance might). */
class CancelledAtBirthStore extends MemoryTaskStore {
  override async create(task: TaskRecord, limits: TaskLimits) {
    const outcome = await super.create(task, limits);
    if (outcome === 'created') await super.update(task.id, { kind: 'finish', status: 'cancelled' }, Date.now());
    return outcome;
  }
}

describe('telemetry: the stop event and the span carry the status the task ended with in the store', () => {
  const apps: INestApplication[] = [];
  let events: Array<[string, Record<string, any>]> = [];
  const start = async (options: Partial<McpTasksModuleOptions>) => {
    const app = await createFixtureApp(options, [EventEmitterModule.forRoot({ wildcard: true })]);
    app.get(EventEmitter2).onAny((name: string | string[], payload: Record<string, any>) => {
      events.push([String(name), payload]);
    });
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    events = [];
  });
  const create = async (app: INestApplication, name: string, args: Record<string, unknown>) =>
    (await call(app, name, args, { caps: TASKS })).body.result.taskId as string;
  const stopOf = (taskId: string) =>
    until(`the stop event of ${taskId}`, () =>
      events.find(([n, p]) => n === McpTaskEvents.stop && p.taskId === taskId),
    );
  const spanStatus = async (tool: string) => {
    const run = await until(`the execute_tool ${tool} span`, () => spans(`execute_tool ${tool}`)[0]);
    return run.attributes['mcp.task.status'];
  };
  const stored = async (store: MemoryTaskStore, id: string) => (await store.get(id, Date.now()))?.status;

  it('a tool that returns normally after a cancel: cancelled', async () => {
    const store = new MemoryTaskStore();
    const app = await start({ store });
    const id = await create(app, 'stubborn', { ms: 400 });
    await until('running', () => store.get(id, Date.now()).then((t) => t?.leaseOwner));
    await cancelTask(app, id);
    const [, stop] = await stopOf(id);
    expect(stop).toMatchObject({ status: 'cancelled', isError: false });
    expect(await spanStatus('stubborn')).toBe('cancelled');
    expect(await stored(store, id)).toBe('cancelled');
  });

  it('cancelled in the store before the run started: cancelled', async () => {
    const store = new CancelledAtBirthStore();
    const app = await start({ store });
    const id = await create(app, 'stubborn', { ms: 50 });
    expect((await stopOf(id))[1]).toMatchObject({ status: 'cancelled' });
    expect(await spanStatus('stubborn')).toBe('cancelled');
  });

  it('cancelled through another instance (relayed by a shared bus): cancelled', async () => {
    const store = new MemoryTaskStore();
    const bus = new LocalTaskEventBus();
    const a = await start({ store, bus });
    const b = await start({ store, bus });
    const id = await create(a, 'stubborn', { ms: 400 });
    await until('running', () => store.get(id, Date.now()).then((t) => t?.leaseOwner));
    await cancelTask(b, id);
    expect((await stopOf(id))[1]).toMatchObject({ status: 'cancelled' });
    expect(await spanStatus('stubborn')).toBe('cancelled');
  });

  it('ended by shutdown: failed', async () => {
    const store = new MemoryTaskStore();
    const app = await start({ store, shutdownGrace: 100 });
    const id = await create(app, 'wait', { ms: 60_000 });
    await until('running', () => store.get(id, Date.now()).then((t) => t?.leaseOwner));
    await app.close();
    apps.splice(0);
    expect(await stored(store, id)).toBe('failed');
    expect((await stopOf(id))[1]).toMatchObject({ status: 'failed', isError: false });
    expect(await spanStatus('wait')).toBe('failed');
  });

  it('stopped by its ttl: expired', async () => {
    const store = new MemoryTaskStore();
    const app = await start({ store, ttl: 300 });
    const id = await create(app, 'wait', { ms: 60_000 });
    expect((await stopOf(id))[1]).toMatchObject({ status: 'expired' });
    expect(await spanStatus('wait')).toBe('expired');
    expect(await stored(store, id)).toBeUndefined();
  });

  it('its lease lost (reclaimed as interrupted) while it ran: failed', async () => {
    const store = new MemoryTaskStore();
    const app = await start({ store });
    const id = await create(app, 'stubborn', { ms: 400 });
    await until('running', () => store.get(id, Date.now()).then((t) => t?.leaseOwner));
    const error = { code: -32603, message: 'The task was interrupted: the instance running it stopped' };
    expect(await store.reclaimExpiredLeases(Date.now() + 120_000, 10, error)).toEqual([id]);
    expect((await stopOf(id))[1]).toMatchObject({ status: 'failed' });
    expect(await spanStatus('stubborn')).toBe('failed');
  });

  it('completed, completed with isError, failed: as stored', async () => {
    const app = await start({});
    for (const [tool, status, isError] of [
      ['wait', 'completed', false],
      ['toolFail', 'completed', true],
      ['rpcFail', 'failed', false],
    ] as const) {
      const id = await create(app, tool, tool === 'wait' ? { ms: 1 } : {});
      expect((await stopOf(id))[1]).toMatchObject({ status, isError });
      expect((await waitForTask(app, id)).status).toBe(status);
    }
  });
});
