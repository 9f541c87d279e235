import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { newTask, NO_LIMITS, T0 } from '@mcp-tasks/nestjs/testing';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { sqlHarness, type SqlHarness } from './sql-harness.js';

/**
 * An instance renews the leases of every task it runs while those runs write progress, batched into one UPDATE.
 * Both statements lock many rows: in different orders they deadlock, PostgreSQL aborts one, and a renewal lost
 * twice in a row lets another instance take a live run over. Every multi-row write locks in id order.
 */
describe('PostgreSQL: renewals and batched writes of the same tasks at once', () => {
  let pg: TestPostgres | undefined;
  let h: SqlHarness;
  beforeAll(async () => {
    pg = await startPostgres();
    h = await sqlHarness({ type: 'postgres', url: pg.url }, false);
  }, 60_000);
  afterAll(async () => {
    await h?.close();
    await pg?.stop();
  });

  it('never deadlock: 40 rounds of a renewal and 150 progress writes racing over the same rows', async () => {
    const tasks = Array.from({ length: 150 }, () => newTask({ leaseOwner: 'node-a', leaseExpiresAt: T0 + 1_000 }));
    for (const t of tasks) await h.store.create(t, NO_LIMITS);
    const ids = tasks.map((t) => t.id);
    const errors: string[] = [];
    const note = (err: unknown) => void errors.push((err as Error).message);
    for (let round = 1; round <= 40; round++) {
      const shuffled = [...ids].sort(() => Math.random() - 0.5);
      const writes = shuffled.map((id) =>
        h.store.update(id, { kind: 'progress', statusMessage: `round ${round}` }, T0 + round).catch(note),
      );
      const renewals = [h.store.renewLeases(shuffled, 'node-a', T0 + 10_000 + round).catch(note)];
      await Promise.all([...writes, ...renewals]);
    }
    expect(errors).toEqual([]);
    const read = await Promise.all(ids.map((id) => h.store.get(id, T0 + 50)));
    expect(new Set(read.map((t) => `${t?.statusMessage} ${t?.leaseExpiresAt}`))).toEqual(
      new Set([`round 40 ${T0 + 10_040}`]),
    );
  }, 120_000);
});
