import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { InstrumentedAppModule, recordingInstrument, seen } from './fixtures/instrumented-app.js';
import { call, cancelTask, rpc, TASKS, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

// `nest new` (12) writes main.ts with `instrument: ObserveInstrument` (@nestjs/observe): every provider, the
// library's and the app's, is a Proxy whose methods are wrappers. Tools must still be found and run on their
// instance, and a tool call must reach the method through the instance (as Nest calls a controller method), so the
// instrument sees it.
const exporter = new InMemorySpanExporter();
const span = (name: string) => exporter.getFinishedSpans().find((s) => s.name === name);

describe('an app whose instrument wraps every provider (as @nestjs/observe does)', () => {
  let app: INestApplication;
  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    app = await NestFactory.create(InstrumentedAppModule, { instrument: recordingInstrument, logger: false });
    await app.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    await app.close();
    trace.disable();
    context.disable();
  });
  beforeEach(() => {
    seen.splice(0);
    exporter.reset();
  });

  it('tools/list shows the wrapped provider’s tools', async () => {
    const res = await rpc(app, 'tools/list');
    expect(res.body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(['greet', 'pages']);
  });

  it('a synchronous call runs the method through the instrument, on its instance', async () => {
    const res = await call(app, 'greet', { name: 'ada' });
    expect(res.body.result.content).toEqual([{ type: 'text', text: 'Hello, ADA' }]);
    // The method's own call to this.shout() goes through the proxy after it.
    expect(seen.filter((name) => name.startsWith('GreetingTools.'))).toEqual([
      'GreetingTools.greet',
      'GreetingTools.shout',
    ]);
    expect(span('execute_tool greet')?.attributes['mcp.task.status']).toBe('completed');
  });

  it('a task runs the method through the instrument too', async () => {
    const res = await call(app, 'pages', { pages: 2 }, { caps: TASKS });
    const done = await waitForTask(app, res.body.result.taskId, undefined, 30_000);
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Hello: 2 pages' }] },
    });
    expect(seen).toContain('GreetingTools.pages');
    await until('the execute_tool span', () => span('execute_tool pages'));
    expect(span('execute_tool pages')!.attributes['mcp.task.status']).toBe('completed');
  });

  it('a cancel stops a running task', async () => {
    const res = await call(app, 'pages', { pages: 100 }, { caps: TASKS });
    const taskId = res.body.result.taskId;
    await waitForTask(app, taskId, (s) => s === 'working', 30_000);
    expect((await cancelTask(app, taskId)).body.error).toBeUndefined();
    expect(await waitForTask(app, taskId, undefined, 30_000)).toMatchObject({ status: 'cancelled' });
  });
});
