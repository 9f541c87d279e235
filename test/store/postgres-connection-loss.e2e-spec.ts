import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { mcpTasksEntities, mcpTasksMigrations, TypeOrmTaskStore } from '@mcp-tasks/nestjs/typeorm';
import { newTask, T0 } from '@mcp-tasks/nestjs/testing';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { until } from '../support/until.js';

const CAPS = { maxPerOwner: 5, maxTotal: Infinity };

/**
 * A database that drops a connection while the store holds it for a transaction (a restart, an admin's
 * `pg_terminate_backend`) fails that write; it must not end the process with an unhandled 'error' event.
 * The create is held on the owner's cap lock, taken first by another session, so the kill lands while
 * the store's client is out of the pool — every time, not by chance.
 */
describe('TypeOrmTaskStore on PostgreSQL: a connection lost mid-transaction', () => {
  let pg: TestPostgres | undefined;
  let ds: DataSource | undefined;
  let admin: DataSource | undefined;

  beforeAll(async () => {
    pg = await startPostgres();
    ds = new DataSource({
      type: 'postgres',
      url: pg.url,
      entities: mcpTasksEntities,
      migrations: mcpTasksMigrations,
      migrationsRun: true,
    });
    await ds.initialize();
    admin = await new DataSource({ type: 'postgres', url: pg.url }).initialize();
  }, 60_000);
  afterAll(async () => {
    await ds?.destroy().catch(() => undefined);
    await admin?.destroy().catch(() => undefined);
    await pg?.stop();
  });

  it('fails the write it interrupted; the store goes on serving', async () => {
    const store = new TypeOrmTaskStore(ds!);
    const holder = admin!.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await holder.query(`SELECT pg_advisory_xact_lock(hashtext('mcp_tasks.owner'), hashtext('victim'))`);

    const held = store.create(newTask({ owner: 'victim' }), CAPS).then(
      () => 'created',
      (err: Error) => err,
    );
    const waiting = async (): Promise<number[]> =>
      (
        (await admin!.query(
          `SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        )) as { pid: number }[]
      ).map((r) => r.pid);
    const [pid] = await until('the create waits on the cap lock', async () => {
      const pids = await waiting();
      return pids.length === 1 ? pids : undefined;
    });
    await admin!.query('SELECT pg_terminate_backend($1)', [pid]);

    const outcome = await held;
    expect(outcome).toBeInstanceOf(Error);
    expect(String((outcome as Error).message)).toMatch(/terminat|connection/i);
    await holder.rollbackTransaction();
    await holder.release();

    const next = newTask({ owner: 'victim' });
    expect(await store.create(next, CAPS)).toBe('created');
    expect(await store.get(next.id, T0)).toMatchObject({ id: next.id, owner: 'victim', status: 'working' });
  }, 60_000);
});
