import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClusterApp } from '../fixtures/cluster-app.js';
import { observed } from '../fixtures/fixture-tools.js';
import type { AppProcess } from '../support/app-process.js';
import { listen } from '../support/listen.js';
import { call, cancelTask, getTask, TASKS, updateTask, waitForTask } from '../support/mcp-request.js';
import { until } from '../support/until.js';
import { startDemo, startDemoTask } from './demo-instance.js';
import { startBackend, type BusKind, type PairBackend, type StoreKind } from './pair-backend.js';
import { LIVE } from './stored-tasks.reader.js';

/** The killed instance's lease, and the watcher's (which then looks for lapsed runs every LEASE / 2). */
const LEASE = 1_000;
/**
 * A's and B's pollInterval: longer than the suite runs, so neither re-reads the store (nor wakes a waiting run) while
 * it runs: whatever crosses from one to the other comes over the bus.
 */
const POLL = 300_000;
/** "At once", with room for a loaded 2-core machine (3.7 s seen, five suites at once, load average 30). */
const AT_ONCE = 10_000;
/**
 * How long the killed run may stay `working`: LEASE, then the watcher's next look (LEASE / 2), then room for load
 * (2.5 s seen, five suites at once, load average 45).
 */
const TAKEOVER = LEASE + 4_000;
const CAP = 20;
const CREATES = 300;
const FULL = { ...TASKS, elicitation: {} };
const yes = (ok: boolean) => ({ action: 'accept', content: { ok } });

/**
 * Instances A and B on one store, relaying over one bus (one spec file per pair, so jest runs the pairs in parallel):
 * cancels, answers and listen streams cross instances at once; racing creates over both never pass the owner's cap;
 * an instance killed with SIGKILL (the demo, a real process) has its task ended by another within its lease.
 */
export function clusterPairSuite(store: StoreKind, bus: BusKind): void {
  describe(`cluster: ${store} store, ${bus} bus`, () => {
    let backend: PairBackend;
    let a: INestApplication;
    let b: INestApplication;
    /** Only watches for lapsed leases (A and B keep the default lease: a loaded machine must not lapse theirs). */
    let watcher: INestApplication;
    let demo: Promise<AppProcess>;
    beforeAll(async () => {
      backend = await startBackend(store, bus);
      const app = (options: object) => createClusterApp(backend.store, { bus: backend.bus, ...options });
      const relay = { pollInterval: POLL, maxPerPrincipal: CAP };
      // The first instance on PostgreSQL runs the migrations alone; the others start together.
      const first = store === 'postgres' ? await app(relay) : undefined;
      demo = startDemo(backend.demoEnv, LEASE);
      demo.catch(() => undefined); // its own test reports a failed start
      [a, b, watcher] = await Promise.all([first ?? app(relay), app(relay), app({ lease: LEASE })]);
    }, 90_000);
    afterAll(async () => {
      (await demo?.catch(() => undefined))?.kill('SIGKILL');
      for (const app of [a, b, watcher]) await app?.close();
      await backend?.stop();
    });

    const started = async (app: INestApplication, tool: string, args: object, caps: object = TASKS) => {
      const { body } = await call(app, tool, args as Record<string, unknown>, { caps: caps as never });
      expect(body.result?.resultType).toBe('task');
      return body.result.taskId as string;
    };

    it('a task created on A is read on B, identically', async () => {
      // Compared while nothing can change it (a long wait), so a slow machine cannot finish it between the reads.
      const long = await started(a, 'wait', { ms: 60_000 });
      expect((await getTask(b, long)).body.result).toEqual((await getTask(a, long)).body.result);
      await cancelTask(a, long);
      const id = await started(a, 'wait', { ms: 200 });
      const doneB = await waitForTask(b, id, undefined, 10_000);
      expect(doneB.result.content[0].text).toBe('waited 200');
      expect((await getTask(a, id)).body.result).toEqual((await getTask(b, id)).body.result);
    });

    it('an elicitation raised on A, answered through B, resumes the tool on A at once', async () => {
      const id = await started(a, 'ask', {}, FULL);
      await waitForTask(b, id, (s) => s === 'input_required', 10_000);
      const t0 = Date.now();
      expect((await updateTask(b, id, { a: yes(true) })).body.error).toBeUndefined();
      const asked = async () => !!(await getTask(a, id)).body.result?.inputRequests?.b;
      await until('A to ask its second question', asked, 20_000, 20);
      expect(Date.now() - t0).toBeLessThan(AT_ONCE);
      expect(Object.keys((await getTask(b, id)).body.result.inputRequests)).toEqual(['b']);
      await updateTask(b, id, { b: yes(false) });
      const done = await waitForTask(b, id, undefined, 10_000);
      expect(done.result.content[0].text).toBe('a=true again=true b=false');
    });

    it('tasks/cancel on B fires ctx.signal on A at once', async () => {
      const id = await started(a, 'wait', { ms: 60_000, tag: 'x-cancel' });
      await sleep(100);
      expect(observed.aborted.has(id)).toBe(false);
      expect((await cancelTask(b, id)).body.error).toBeUndefined();
      const t0 = Date.now();
      await until('A to abort the run', () => observed.aborted.has(id), 20_000, 5);
      expect(Date.now() - t0).toBeLessThan(AT_ONCE);
      expect((await getTask(a, id)).body.result.status).toBe('cancelled');
    });

    it(`${CREATES} racing creates for one owner over A and B stop at maxPerPrincipal exactly (store)`, async () => {
      const replies = await Promise.all(
        Array.from({ length: CREATES }, (_, i) =>
          call(i % 2 ? a : b, 'job', { ms: 60_000, tag: 'cap' }, { caps: TASKS }),
        ),
      );
      const created = replies.filter((r) => r.body.result?.resultType === 'task').map((r) => r.body.result.taskId);
      const refused = replies.filter((r) => r.body.error?.code === -32600);
      expect(created.length + refused.length).toBe(CREATES);
      expect(refused[0]?.body.error.message).toMatch(/^Too many live tasks: you have reached the limit/);
      try {
        // Nothing else of this owner is live now, and no job ends in the meantime: the cap is met exactly.
        const live = (await backend.stored.all()).filter((t) => LIVE.includes(t.status));
        expect(live).toHaveLength(CAP);
        expect(new Set(live.map((t) => t.id))).toEqual(new Set(created));
        expect(new Set(live.map((t) => t.tool))).toEqual(new Set(['job']));
      } finally {
        await Promise.all(created.map((id) => cancelTask(a, id)));
      }
    }, 120_000);

    it('listening on B delivers the status changes of a task running on A', async () => {
      const id = await started(a, 'ask', {}, FULL);
      await waitForTask(a, id, (st) => st === 'input_required', 10_000);
      const s = await listen(b, { taskIds: [id] }, { caps: TASKS, id: 'cross' });
      try {
        await s.next((f) => f.method === 'notifications/subscriptions/acknowledged', AT_ONCE);
        await updateTask(a, id, { a: yes(true) });
        const asked = await s.next((f) => f.method === 'notifications/tasks' && !!f.params.inputRequests?.b, AT_ONCE);
        expect(asked.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('cross');
        await updateTask(a, id, { b: yes(true) });
        const done = await s.next(
          (f) => f.method === 'notifications/tasks' && f.params.status === 'completed',
          AT_ONCE,
        );
        expect(done.params.result.content[0].text).toBe('a=true again=true b=true');
      } finally {
        s.close();
      }
    });

    // Last: it counts the store's working tasks, which the tests above leave none of.
    it('an instance killed with SIGKILL mid-task: another ends the task failed within the lease', async () => {
      const killed = await demo;
      const id = await startDemoTask(killed, 'slow_compute', { seconds: 60, label: 'doomed' });
      await sleep(300);
      killed.kill('SIGKILL');
      const killedAt = Date.now();
      // The demo's tasks belong to the demo's owner key: read the store itself.
      const ended = async () => {
        const task = await backend.stored.get(id);
        return task && task.status !== 'working' ? task : undefined;
      };
      const task = await until('the killed run to end', ended, 20_000, 50);
      expect(task.status).toBe('failed');
      expect(task.error).toMatchObject({ code: -32603, message: expect.stringMatching(/interrupted/) });
      expect(Date.now() - killedAt).toBeLessThan(TAKEOVER);
      expect((await backend.stored.all()).filter((t) => t.status === 'working')).toEqual([]);
    }, 180_000);
  });
}
