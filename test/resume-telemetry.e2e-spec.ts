import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { EventEmitter2, EventEmitterModule } from '@nestjs/event-emitter';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { McpTaskEvents } from '@mcp-tasks/nestjs';
import { createResumableApp, sqliteDatabase, type SharedDatabase } from './fixtures/resumable-app.js';
import { seenRuns } from './fixtures/resumable-tools.js';
import { freezable } from './support/frozen-store.js';
import { call, TASKS, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

const exporter = new InMemorySpanExporter();

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => {
  trace.disable();
  context.disable();
});

describe('telemetry of a resumed task (SQLite)', () => {
  let db: SharedDatabase;
  const apps: INestApplication[] = [];
  const thaws: Array<() => void> = [];
  const events: Array<[string, Record<string, unknown>]> = [];

  beforeAll(async () => {
    db = await sqliteDatabase();
  });
  afterEach(async () => {
    for (const thaw of thaws.splice(0)) thaw();
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(() => db.close());

  async function instance() {
    const gate = freezable(await db.instance());
    thaws.push(gate.thaw);
    const app = await createResumableApp({ store: gate.store, lease: 1_000 }, false, [EventEmitterModule.forRoot()]);
    app.get(EventEmitter2).onAny((name: string | string[], payload: Record<string, unknown>) => {
      events.push([String(name), payload]);
    });
    apps.push(app);
    return { app, freeze: gate.freeze, thaw: gate.thaw };
  }

  it('each attempt is an execute_tool span with its attempt; mcp.task.stop once, with the final status', async () => {
    const a = await instance();
    const b = await instance();
    const id = (await call(a.app, 'steps', { steps: 6, stepMs: 250 }, { caps: TASKS })).body.result.taskId as string;
    await until('a step checkpointed', () => seenRuns.get(id)?.[0]?.stored.length);
    a.freeze();
    await until('attempt 2 runs', () => seenRuns.get(id)?.length === 2, 15_000);
    a.thaw();
    await waitForTask(b.app, id, undefined, 30_000);
    const spans = () =>
      exporter.getFinishedSpans().filter((s) => s.name === 'execute_tool steps' && s.attributes['mcp.task.id'] === id);
    await until('both spans ended', () => spans().length === 2);
    expect(
      spans()
        .map((s) => s.attributes['mcp.task.attempt'])
        .sort((x, y) => Number(x) - Number(y)),
    ).toEqual([1, 2]);
    expect(spans().find((s) => s.attributes['mcp.task.attempt'] === 2)?.attributes['mcp.task.status']).toBe(
      'completed',
    );
    const mine = (name: string) => events.filter(([n, p]) => n === name && p.taskId === id).map(([, p]) => p);
    expect(mine(McpTaskEvents.start).map((p) => p.attempt)).toEqual([1, 2]);
    expect(mine(McpTaskEvents.stop)).toEqual([expect.objectContaining({ status: 'completed', attempt: 2 })]);
  });
});
