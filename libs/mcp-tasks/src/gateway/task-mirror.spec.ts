import { describe, expect, it } from '@jest/globals';
import { setTimeout as sleep } from 'node:timers/promises';
import { RpcError } from '../protocol/rpc.error.js';
import { MemoryTaskStore } from '../store/memory/memory-task.store.js';
import type { TaskRecord } from '../store/task.record.js';
import { TaskMirror } from './task-mirror.js';
import type { UpstreamTask } from './upstream-client.api.js';
import type { UpstreamConnection } from './upstream.connection.js';
import { UpstreamAnsweredError } from './upstream-answered.error.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';

const CALLER = { key: 'k', subject: 'alice', scopes: [] };
const rpcError = (code: number, message: string) => new UpstreamAnsweredError('files', code, message);
const upTask = (over: Partial<UpstreamTask> = {}): UpstreamTask => ({
  taskId: 'up-1',
  status: 'working',
  createdAt: new Date().toISOString(),
  ttlMs: 60_000,
  pollIntervalMs: 100,
  ...over,
});

/** A scripted upstream: `tasks/get` answers from `state()` (or throws it), and every request is recorded. */
class FakeUpstream {
  readonly name = 'files';
  readonly requests: Array<{ method: string; at: number; params: Record<string, unknown> }> = [];
  listenError: unknown = rpcError(-32601, 'Method not found: subscriptions/listen');
  onTask?: (task: UpstreamTask) => void;

  constructor(public state: () => UpstreamTask | Error) {}

  async request(method: string, params: Record<string, unknown>): Promise<unknown> {
    this.requests.push({ method, at: Date.now(), params });
    if (method === 'tasks/cancel') return { resultType: 'complete' };
    const s = this.state();
    if (s instanceof Error) throw s;
    return { resultType: 'complete', ...s };
  }

  async listen(ids: string[], onTask: (task: UpstreamTask) => void) {
    if (this.listenError) throw this.listenError;
    this.onTask = onTask;
    return { acknowledged: ids, closed: new Promise<void>(() => undefined), close: () => undefined };
  }

  polls(): number {
    return this.requests.filter((r) => r.method === 'tasks/get').length;
  }
}

async function mirrorOf(upstream: FakeUpstream, over: Partial<TaskRecord> = {}) {
  const store = new MemoryTaskStore();
  const now = Date.now();
  const task: TaskRecord = {
    id: 'local-1',
    owner: 'k',
    tool: 'files_copy',
    status: 'working',
    inputRequests: {},
    inputResponses: {},
    requiredScopes: [],
    createdAt: now,
    updatedAt: now,
    expiresAt: now + 60_000,
    upstream: { name: 'files', taskId: 'up-1', principal: CALLER },
    ...over,
  };
  await store.create(task, { maxPerOwner: 10, maxTotal: 10 });
  const cancelled: string[] = [];
  const mirror = new TaskMirror(
    task,
    upstream as unknown as UpstreamConnection,
    {
      read: () => store.get(task.id, Date.now()),
      apply: (change) => store.update(task.id, change, Date.now()),
      cancelUpstream: async () => {
        await upstream.request('tasks/cancel', { taskId: 'up-1' });
        cancelled.push('up-1');
        return true;
      },
      holds: (current) => current.leaseOwner !== 'other-instance',
    },
    1_000,
  );
  const read = async () => (await store.get(task.id, Date.now()))!;
  return { store, mirror, read, cancelled };
}

describe('TaskMirror', () => {
  it('without listening, polls at the upstream pollIntervalMs and mirrors progress, then the result', async () => {
    let polls = 0;
    const up = new FakeUpstream(() => {
      polls++;
      if (polls < 4) return upTask({ statusMessage: `step ${polls}`, pollIntervalMs: 150 });
      return upTask({
        status: 'completed',
        result: { resultType: 'complete', content: [{ type: 'text', text: 'copied' }], _meta: { x: 1 } },
      });
    });
    const { mirror, read } = await mirrorOf(up);
    const seen: Array<string | undefined> = [];
    const run = mirror.run();
    while (polls < 3) {
      await sleep(10);
      seen.push((await read()).statusMessage);
    }
    await run;
    expect(await read()).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'copied' }] },
    });
    expect((await read()).result).toEqual({ content: [{ type: 'text', text: 'copied' }] });
    expect(seen).toContain('step 1');
    const gaps = up.requests.slice(1).map((r, i) => r.at - up.requests[i].at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(140);
  });

  it('while listening, a notification ends the wait at once (polls only every 5 × pollIntervalMs)', async () => {
    const up = new FakeUpstream(() => upTask({ pollIntervalMs: 2_000 }));
    up.listenError = undefined;
    const { mirror, read } = await mirrorOf(up);
    const run = mirror.run();
    while (!up.onTask) await sleep(5);
    const started = Date.now();
    up.onTask(upTask({ status: 'failed', error: { code: -32000, message: 'disk full' } }));
    await run;
    // A poll would have come after 10 s.
    expect(Date.now() - started).toBeLessThan(5_000);
    // The first read, and at most one right after the stream was acknowledged.
    expect(up.polls()).toBeLessThanOrEqual(2);
    expect(await read()).toMatchObject({ status: 'failed', error: { code: -32000, message: 'disk full' } });
  });

  it('mirrors questions under the same keys; a key answered here is not asked again', async () => {
    const ask = { method: 'elicitation/create', params: { message: 'Overwrite?' } };
    const up = new FakeUpstream(() => upTask({ status: 'input_required', inputRequests: { overwrite: ask } }));
    const { mirror, read, store } = await mirrorOf(up);
    const run = mirror.run();
    while ((await read()).status !== 'input_required') await sleep(5);
    expect((await read()).inputRequests).toEqual({ overwrite: ask });
    await store.update('local-1', { kind: 'answer', responses: { overwrite: { action: 'accept' } } }, Date.now());
    // The upstream still shows the question until it takes the answer: the local task stays answered.
    await sleep(400);
    expect(await read()).toMatchObject({ status: 'working', inputRequests: {} });
    up.state = () => upTask({ status: 'cancelled' });
    await run;
    expect((await read()).status).toBe('cancelled');
  });

  it('an upstream that no longer knows the task ends it failed, saying so', async () => {
    const up = new FakeUpstream(() => rpcError(-32602, 'Task not found'));
    const { mirror, read } = await mirrorOf(up);
    await mirror.run();
    expect(await read()).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'The upstream task was lost: "files" no longer has it' },
    });
  });

  it('another JSON-RPC error of the upstream ends the task failed with that error', async () => {
    const up = new FakeUpstream(() => rpcError(-32600, 'Forbidden resource'));
    const { mirror, read } = await mirrorOf(up);
    await mirror.run();
    expect(await read()).toMatchObject({ status: 'failed', error: { code: -32600, message: 'Forbidden resource' } });
  });

  it("an error of ours with a JSON-RPC code is not the upstream's answer: retried, not the task's end", async () => {
    let polls = 0;
    const up = new FakeUpstream(() =>
      ++polls === 1 ? new RpcError(-32602, 'Task not found') : upTask({ status: 'completed' }),
    );
    const { mirror, read } = await mirrorOf(up);
    await mirror.run();
    expect(await read()).toMatchObject({ status: 'completed' });
    expect(polls).toBe(2);
  });

  it('an unreachable upstream is retried until a tenth of the ttl is left, then the task ends failed', async () => {
    const up = new FakeUpstream(() => new UpstreamUnreachableError('files', 'connect ECONNREFUSED'));
    const now = Date.now();
    const { mirror, read } = await mirrorOf(up, { createdAt: now, expiresAt: now + 3_000 });
    await mirror.run();
    const task = await read();
    expect(task).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: 'Upstream "files" stayed unreachable until the task\'s time ran out' },
    });
    expect(task.updatedAt - now).toBeGreaterThanOrEqual(2_700);
    expect(task.updatedAt - now).toBeLessThan(3_000);
    expect(up.polls()).toBeGreaterThan(2);
  });

  it('a task cancelled here is cancelled upstream, and no longer followed', async () => {
    const up = new FakeUpstream(() => upTask({ pollIntervalMs: 100 }));
    const { mirror, store, cancelled } = await mirrorOf(up);
    const run = mirror.run();
    await sleep(150);
    await store.update('local-1', { kind: 'finish', status: 'cancelled' }, Date.now());
    mirror.wake();
    await run;
    expect(cancelled).toEqual(['up-1']);
    const polls = up.polls();
    await sleep(300);
    expect(up.polls()).toBe(polls);
  });

  it('a cancel landing between its read and a change it applies still reaches the upstream', async () => {
    let store!: MemoryTaskStore;
    let polls = 0;
    const up = new FakeUpstream(() => {
      // The second poll: the task is cancelled here after the mirror read it, before it applies the new message.
      if (++polls === 2) void store.update('local-1', { kind: 'finish', status: 'cancelled' }, Date.now());
      return upTask({ pollIntervalMs: 100, statusMessage: `step ${polls}` });
    });
    const m = await mirrorOf(up);
    store = m.store;
    await m.mirror.run();
    expect((await m.read()).status).toBe('cancelled');
    expect(m.cancelled).toEqual(['up-1']);
  });

  it('stops following once another instance holds the task (it took the mirror over), leaving it live', async () => {
    const up = new FakeUpstream(() => upTask({ pollIntervalMs: 50 }));
    const { mirror, store, read } = await mirrorOf(up, { leaseOwner: 'this-instance', leaseExpiresAt: Date.now() });
    const run = mirror.run();
    while (up.polls() < 2) await sleep(10);
    // Its lease lapsed (nothing renews it here): another instance adopts the mirror, as its keeper would.
    const adopted = await store.adoptLapsedMirrors(Date.now(), 10, 'other-instance', Date.now() + 60_000);
    expect(adopted.map((t) => t.id)).toEqual(['local-1']);
    await run;
    const polls = up.polls();
    await sleep(300);
    expect(up.polls()).toBe(polls);
    expect(await read()).toMatchObject({ status: 'working', leaseOwner: 'other-instance' });
    expect(up.requests.filter((r) => r.method === 'tasks/cancel')).toEqual([]);
  });

  it("waits, not loops, on an upstream poll hint past a timer's range (or not a number)", async () => {
    for (const pollIntervalMs of [2 ** 31, 2 ** 40, Number.NaN]) {
      const up = new FakeUpstream(() => upTask({ pollIntervalMs }));
      const { mirror, store } = await mirrorOf(up);
      const run = mirror.run();
      await sleep(400);
      // NaN falls back to the server's own 1 s; the overflowing hints wait the longest timer there is.
      expect(up.polls()).toBe(1);
      await store.update('local-1', { kind: 'finish', status: 'cancelled' }, Date.now());
      mirror.wake();
      await run;
    }
  });

  it('stops once the local task has expired', async () => {
    const up = new FakeUpstream(() => upTask({ pollIntervalMs: 50 }));
    const now = Date.now();
    const { mirror } = await mirrorOf(up, { createdAt: now, expiresAt: now + 300 });
    await mirror.run();
    // Not followed on for long past its expiry (a mirror that did not notice would never end).
    expect(Date.now() - now).toBeLessThan(5_000);
  });
});
