import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { startFaultyUpstream, type Fault, type FaultyUpstream, type SeenCall } from './fixtures/faulty-upstream.js';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { call, cancelTask, getTask, TASKS, updateTask } from './support/mcp-request.js';
import { until } from './support/until.js';

/** What a caller gets from an upstream that did not answer (docs/gateway.md, "Failures"). */
const UNREACHABLE = { code: -32603, message: 'Upstream "up" is unreachable; try again later' };
const TIMEOUT = 3_000;
const ASKS = { ...TASKS, elicitation: {} };
const timedOut = { code: -32001, message: 'Request timed out' };
const closed = { code: -32000, message: 'Connection closed' };

/** A mirror's own listen stream (the client's tool-list stream has no task ids). */
const mirrorListen = (c: SeenCall) => c.method === 'subscriptions/listen' && !!c.params.notifications?.taskIds;

/**
 * A 2026-07-28 upstream (this library, the fixture tools) behind a proxy that breaks requests, on every path a
 * request takes: a synchronous call, a task's creation, the mirror's polls and listen stream, `tasks/update`,
 * `tasks/cancel`. A request that times out or whose connection closes is "unreachable"; an error the upstream
 * answers passes through, `-32001` and `-32000` included.
 */
describe('gateway: a 2026-07-28 upstream whose requests fail on the way', () => {
  let upstream: INestApplication;
  let proxy: FaultyUpstream;
  let gateway: INestApplication;
  /** Unless a test says otherwise, mirrors are refused a listen stream: they poll, so tasks/get faults tell. */
  const faults = (on: (c: SeenCall) => Fault | undefined) => {
    proxy.fault = (c) => on(c) ?? (mirrorListen(c) ? { error: { code: -32601, message: 'no listening' } } : undefined);
  };
  const on = (method: string, fault: Fault) => faults((c) => (c.method === method ? fault : undefined));
  const create = async (tool: string, args: Record<string, unknown>, caps = TASKS): Promise<string> =>
    (await call(gateway, `up_${tool}`, args, { caps })).body.result.taskId as string;
  const task = async (id: string) => (await getTask(gateway, id)).body.result;
  const ended = (id: string) =>
    until('the task ended', async () => ['completed', 'failed', 'cancelled'].includes((await task(id)).status), 30_000);

  beforeAll(async () => {
    upstream = await createFixtureApp();
    proxy = await startFaultyUpstream(`${await upstream.getUrl()}/mcp`);
    faults(() => undefined);
    gateway = await createGatewayApp([{ name: 'up', url: proxy.url, timeout: TIMEOUT }]);
    await until('the upstream listed', async () => (await call(gateway, 'up_echo', { text: 'x' })).body.result);
  }, 60_000);
  afterEach(() => faults(() => undefined));
  afterAll(async () => {
    await gateway?.close();
    await proxy?.close();
    await upstream?.close();
  });

  it('tools/call hanging past timeout, or closed before or during the answer: unreachable; next answered', async () => {
    for (const fault of ['hang', 'drop', 'cut'] as const) {
      on('tools/call', fault);
      expect((await call(gateway, 'up_echo', { text: fault })).body.error).toEqual(UNREACHABLE);
      faults(() => undefined);
      expect((await call(gateway, 'up_echo', { text: 'next' })).body.result.content).toEqual([
        { type: 'text', text: 'echo:next' },
      ]);
    }
  }, 30_000);

  it('-32001 and -32000 answered by the upstream itself pass through unchanged', async () => {
    for (const error of [timedOut, closed]) {
      on('tools/call', { error });
      expect((await call(gateway, 'up_echo', { text: 'x' })).body.error).toEqual(error);
    }
  });

  it('a tools/call that would create a task, left hanging: the unreachable error', async () => {
    on('tools/call', 'hang');
    expect((await call(gateway, 'up_job', { ms: 1 }, { caps: TASKS })).body.error).toEqual(UNREACHABLE);
  }, 30_000);

  it('the mirror: tasks/get left hanging keeps the task working until the upstream answers again', async () => {
    on('tasks/get', 'hang');
    const id = await create('job', { ms: 500 });
    await until('a poll left hanging', () => proxy.seen.some((c) => c.method === 'tasks/get'));
    await sleep(TIMEOUT + 1_000);
    expect((await task(id)).status).toBe('working');
    faults(() => undefined);
    await ended(id);
    expect(await task(id)).toMatchObject({ status: 'completed', result: { content: [{ text: 'job' }] } });
  }, 40_000);

  it("the mirror: -32001 answered to tasks/get by the upstream itself is the task's error", async () => {
    on('tasks/get', { error: timedOut });
    const id = await create('job', { ms: 60_000 });
    await ended(id);
    expect(await task(id)).toMatchObject({ status: 'failed', error: timedOut });
  }, 40_000);

  it('the mirror: a listen stream left hanging does not stop it; it polls and the task completes', async () => {
    faults((c) => (mirrorListen(c) ? 'hang' : undefined));
    const id = await create('job', { ms: 300 });
    await ended(id);
    expect((await task(id)).status).toBe('completed');
    expect(proxy.seen.some(mirrorListen)).toBe(true);
  }, 40_000);

  it('tasks/update hanging: unreachable; -32000 answered passes through; then the answer goes', async () => {
    const id = await create('ask', {}, ASKS);
    await until('asked', async () => (await task(id)).status === 'input_required');
    const answer = { a: { action: 'accept', content: { ok: true } } };
    on('tasks/update', 'hang');
    expect((await updateTask(gateway, id, answer)).body.error).toEqual(UNREACHABLE);
    on('tasks/update', { error: closed });
    expect((await updateTask(gateway, id, answer)).body.error).toEqual(closed);
    faults(() => undefined);
    expect((await updateTask(gateway, id, answer)).body.result).toBeDefined();
    await cancelTask(gateway, id);
  }, 30_000);

  it("tasks/cancel closed mid-request: the caller's cancel is answered; the mirror's own gets there", async () => {
    let first = true;
    faults((c) => (c.method === 'tasks/cancel' && first ? ((first = false), 'drop') : undefined));
    const id = await create('job', { ms: 60_000 });
    expect((await cancelTask(gateway, id)).body.result.resultType).toBe('complete');
    expect((await task(id)).status).toBe('cancelled');
    const cancels = () => proxy.seen.filter((c) => c.method === 'tasks/cancel');
    await until('a second cancel upstream', () => cancels().length >= 2);
    const upstreamId = cancels()[0].params.taskId as string;
    await until(
      'cancelled upstream',
      async () => (await getTask(upstream, upstreamId)).body.result?.status === 'cancelled',
    );
  }, 30_000);
});
