import { afterEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import {
  MemoryTaskStore,
  TaskEventBus,
  type TaskChange,
  type TaskError,
  type TaskRecord,
  type UpdateOutcome,
} from '@mcp-tasks/nestjs';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { call, cancelTask, TASKS, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

const FULL = { ...TASKS, elicitation: {} };

/** A store whose clock runs `lag` ms behind the instance's (as a database's own clock might). */
class LaggingStore extends MemoryTaskStore {
  constructor(private readonly lag: number) {
    super();
  }
  override get(id: string, now: number): Promise<TaskRecord | undefined> {
    return super.get(id, now - this.lag);
  }
  override update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    return super.update(id, change, now - this.lag);
  }
  override reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]> {
    return super.reclaimExpiredLeases(now - this.lag, limit, error);
  }
}

describe('a run always leaves its task in its final state', () => {
  const apps: INestApplication[] = [];
  const start = async (...args: Parameters<typeof createFixtureApp>) => {
    const app = await createFixtureApp(...args);
    apps.push(app);
    return app;
  };
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  const created = async (app: INestApplication, name: string, args: Record<string, unknown>) => {
    const res = await call(app, name, args, { caps: FULL });
    expect(res.body.result?.resultType).toBe('task');
    return res.body.result.taskId as string;
  };

  it('a ttl above 2^31-1 ms does not fire at once: the run completes', async () => {
    const store = new MemoryTaskStore();
    const app = await start({ store, ttl: 2 ** 31 + 5_000, lease: 300 });
    const id = await created(app, 'wait', { ms: 600 });
    const done = await waitForTask(app, id, undefined, 10_000);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'waited 600' }] } });
    expect(done.ttlMs).toBe(2 ** 31 + 5_000);
    expect(observed.aborted.has(id)).toBe(false);
  });

  it('a run stopped by a cancel on the bus, with no outcome, ends cancelled (not "interrupted")', async () => {
    const store = new MemoryTaskStore();
    const app = await start({ store, lease: 300 });
    const id = await created(app, 'wait', { ms: 60_000 });
    await until('the run started', () => store.get(id, Date.now()).then((t) => t?.leaseOwner));
    await app.get<TaskEventBus>(TaskEventBus).publish({ type: 'cancel-requested', taskId: id });
    await until('ctx.signal aborted', () => observed.aborted.has(id), 5_000);
    const ended = await until('the task ended', async () => {
      const t = await store.get(id, Date.now());
      return t && t.status !== 'working' ? t : undefined;
    });
    expect(ended.status).toBe('cancelled');
  });

  it('a run stopped by its ttl while the store still holds the task live ends it failed at once', async () => {
    const store = new LaggingStore(20_000);
    const app = await start({ store, ttl: 400 });
    const id = await created(app, 'wait', { ms: 60_000 });
    await until('ctx.signal aborted', () => observed.aborted.has(id), 5_000);
    const ended = await until(
      'the task ended',
      async () => {
        const t = await store.get(id, Date.now());
        return t && t.status !== 'working' ? t : undefined;
      },
      5_000,
    );
    expect(ended).toMatchObject({
      status: 'failed',
      error: { code: -32603, message: expect.stringMatching(/expired/) },
    });
  });

  describe('cancelled through another instance on a shared store, without a relaying bus', () => {
    it.each([
      ['working', 'wait', { ms: 60_000 }, 'working'],
      ['input_required', 'askOnce', {}, 'input_required'],
    ])('noticed while %s: ctx.signal aborts within pollInterval', async (_l, tool, args, state) => {
      const store = new MemoryTaskStore();
      const a = await start({ store, pollInterval: 200 });
      const b = await start({ store, pollInterval: 200 });
      const id = await created(a, tool, args);
      await waitForTask(b, id, (s) => s === state);
      expect(observed.aborted.has(id)).toBe(false);
      await cancelTask(b, id);
      const t0 = Date.now();
      await until('ctx.signal aborted on the running instance', () => observed.aborted.has(id), 5_000, 5);
      // pollInterval plus generous room for a loaded machine.
      expect(Date.now() - t0).toBeLessThan(2_000);
      expect((await store.get(id, Date.now()))?.status).toBe('cancelled');
    });
  });
});
