import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createResumableApp, sqliteDatabase, type SharedDatabase } from './fixtures/resumable-app.js';
import { seenRuns } from './fixtures/resumable-tools.js';
import { heldCall } from './support/held-call.js';
import { call, TASKS, waitForTask } from './support/mcp-request.js';
import { until } from './support/until.js';

/** Long: only a hand-over explains a takeover. */
const LEASE = 10_000;
const GRACE = 200;

/**
 * A look for lapsed tasks under way when shutdown begins, its takeover query slow to reach the database (held open
 * here): it must not take the instance's own tasks just handed over — that would cost them an attempt no run uses.
 */
describe('resumable tasks: a takeover in flight at shutdown (SQLite, instances in-process)', () => {
  let db: SharedDatabase;
  const apps: INestApplication[] = [];

  beforeAll(async () => {
    db = await sqliteDatabase();
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });
  afterAll(() => db.close());

  it("the instance's own handed-over tasks keep their attempt; the next instance runs attempt 2", async () => {
    const held = heldCall(await db.instance(), 'adoptLapsedRuns');
    const a = await createResumableApp({ store: held.store, lease: LEASE, shutdownGrace: GRACE });
    const res = await call(a, 'steps', { steps: 40, stepMs: 250 }, { caps: TASKS });
    const id = res.body.result.taskId as string;
    await until('a step checkpointed', () => seenRuns.get(id)?.[0]?.stored.length);
    held.hold();
    await held.waiting();
    const closing = a.close();
    // A shutdown that does not wait for the look releases the lease after the grace, the look still held; one that
    // waits releases nothing meanwhile: then only the time passes.
    const released = async () => (await db.observer.get(id, Date.now()))?.leaseExpiresAt === 0;
    await until('the lease released', released, 3_000).catch(() => undefined);
    held.release();
    await held.settled();
    await closing;
    // Handed over at attempt 1: no holder, lapsed (expiry 0), no attempt taken.
    const after = await db.observer.get(id, Date.now());
    const { status, attempt = 1, leaseOwner = null, leaseExpiresAt } = after ?? {};
    expect({ status, attempt, leaseOwner, leaseExpiresAt }).toEqual({
      status: 'working',
      attempt: 1,
      leaseOwner: null,
      leaseExpiresAt: 0,
    });
    const b = await createResumableApp({ store: await db.instance(), lease: LEASE, shutdownGrace: GRACE });
    apps.push(b);
    const done = await waitForTask(b, id, undefined, 30_000);
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: '40 steps, attempt 2' }] } });
    expect(seenRuns.get(id)?.map((r) => r.attempt)).toEqual([1, 2]);
  });
});
