import type { DataSource, EntityManager, QueryDeepPartialEntity } from 'typeorm';
import type { TaskError, TaskStatus } from '../../protocol/wire.types.js';
import { applyTaskChange, hasLapsedLease, hasLapsedMirror } from '../apply-task-change.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.js';
import type { TaskStore } from '../task-store.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from '../task.record.js';
import { McpTaskEntity } from './mcp-task.entity.js';
import { dialectFor } from './dialect.factory.js';
import type { StoreDialect } from './store-dialect.js';
import { changedColumns, toRecord, toRow } from './task-row.mapper.js';
import { taskActivity, taskCounts } from './typeorm-task-stats.queries.js';
import { listByOwner, listTasks } from './typeorm-task.queries.js';

const LIVE_STATUSES: TaskStatus[] = ['working', 'input_required'];
/** Ids per statement when renewing leases: well under SQLite's and PostgreSQL's parameter limits. */
const ID_CHUNK = 500;

const unexpired = (row: McpTaskEntity, now: number): boolean => row.expiresAt === null || row.expiresAt > now;
/** `unexpired` in SQL, for queries on `t` with a `:now` parameter. */
const UNEXPIRED = '(t.expiresAt IS NULL OR t.expiresAt > :now)';

/**
 * Tasks in the `mcp_tasks` table of a TypeORM DataSource (PostgreSQL or better-sqlite3), shared by
 * every instance that uses the same database. The DataSource must be initialized, list
 * `mcpTasksEntities`, and have run `mcpTasksMigrations`. Transition rules come from `applyTaskChange`;
 * this class only makes each read-apply-write atomic.
 */
export class TypeOrmTaskStore implements TaskStore {
  private readonly dialect: StoreDialect;

  constructor(dataSource: DataSource) {
    this.dialect = dialectFor(dataSource);
  }

  create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome> {
    const now = task.createdAt;
    const perOwner = limits.maxPerOwner !== Infinity;
    const total = limits.maxTotal !== Infinity;
    return this.dialect.write(async (m) => {
      // The lock makes count-then-insert atomic: concurrent creates for the owner wait here.
      if (perOwner || total) await this.dialect.lockCaps(m, task.owner, total);
      if (perOwner && (await this.countLive(m, now, task.owner)) >= limits.maxPerOwner) return 'owner-limit';
      if (total && (await this.countLive(m, now)) >= limits.maxTotal) return 'server-limit';
      const row = toRow(task) as QueryDeepPartialEntity<McpTaskEntity>;
      await m.createQueryBuilder().insert().into(McpTaskEntity).values(row).execute();
      return 'created';
    });
  }

  get(id: string, now: number): Promise<TaskRecord | undefined> {
    return this.dialect.read(async (m) => {
      const row = await m.findOneBy(McpTaskEntity, { id });
      return row && unexpired(row, now) ? toRecord(row) : undefined;
    });
  }

  update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    return this.dialect.write(async (m) => {
      // Locked read: a concurrent update of this task waits, then applies its change to our result.
      const query = m.createQueryBuilder(McpTaskEntity, 't').where('t.id = :id', { id });
      const row = await this.dialect.lockRows(query, false).getOne();
      if (!row || !unexpired(row, now)) return undefined;
      const task = toRecord(row);
      const next = applyTaskChange(task, change, now);
      if (!next) return { task, changed: false };
      await this.writeChange(m, next);
      return { task: next, changed: true };
    });
  }

  sweep(now: number, limit: number): Promise<number> {
    return this.dialect.write(async (m) => {
      // Skipping locked rows lets instances sweep side by side without waiting on each other.
      const expired = m
        .createQueryBuilder(McpTaskEntity, 't')
        .select('t.id')
        .where('t.expiresAt IS NOT NULL AND t.expiresAt <= :now', { now })
        .limit(limit);
      const subquery = this.dialect.lockRows(expired, true);
      const result = await m
        .createQueryBuilder()
        .delete()
        .from(McpTaskEntity)
        .where(`id IN (${subquery.getQuery()})`)
        .setParameters(subquery.getParameters())
        .execute();
      return result.affected ?? 0;
    });
  }

  async renewLeases(ids: string[], owner: string, until: number): Promise<void> {
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = ids.slice(i, i + ID_CHUNK);
      await this.dialect.write((m) =>
        m
          .createQueryBuilder()
          .update(McpTaskEntity)
          .set({ leaseOwner: owner, leaseExpiresAt: until })
          .where('id IN (:...chunk)', { chunk })
          .andWhere('status IN (:...live)', { live: LIVE_STATUSES })
          .execute(),
      );
    }
  }

  reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]> {
    return this.dialect.write(async (m) => {
      // Mirrors of upstream tasks are adopted by another instance instead (adoptLapsedMirrors).
      const rows = await this.lockLapsed(m, now, limit, false);
      const reclaimed: string[] = [];
      for (const row of rows) {
        const task = toRecord(row);
        // The query only narrows; the rule itself is the shared one.
        if (!hasLapsedLease(task, now)) continue;
        const next = applyTaskChange(task, { kind: 'finish', status: 'failed', error }, now);
        if (!next) continue;
        await this.writeChange(m, next);
        reclaimed.push(task.id);
      }
      return reclaimed;
    });
  }

  listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
    return this.dialect.read((m) => listByOwner(m, query, now));
  }

  adoptLapsedMirrors(now: number, limit: number, owner: string, until: number): Promise<TaskRecord[]> {
    return this.dialect.write(async (m) => {
      const rows = await this.lockLapsed(m, now, limit, true);
      const adopted = rows.map(toRecord).filter((task) => hasLapsedMirror(task, now));
      if (adopted.length === 0) return [];
      await m
        .createQueryBuilder()
        .update(McpTaskEntity)
        .set({ leaseOwner: owner, leaseExpiresAt: until })
        .where('id IN (:...ids)', { ids: adopted.map((t) => t.id) })
        .execute();
      return adopted.map((task) => ({ ...task, leaseOwner: owner, leaseExpiresAt: until }));
    });
  }

  /**
   * Live, unexpired rows whose lease lapsed before `now`, oldest lapse first: mirrors of upstream tasks or the
   * others. Locked with SKIP LOCKED, so rows another instance is reclaiming or adopting are left to it.
   */
  private lockLapsed(m: EntityManager, now: number, limit: number, mirrors: boolean): Promise<McpTaskEntity[]> {
    const query = m
      .createQueryBuilder(McpTaskEntity, 't')
      .where('t.status IN (:...live)', { live: LIVE_STATUSES })
      .andWhere('t.leaseExpiresAt < :now', { now })
      .andWhere(UNEXPIRED)
      .andWhere(mirrors ? 't.upstream IS NOT NULL' : 't.upstream IS NULL')
      .orderBy('t.leaseExpiresAt', 'ASC')
      .limit(limit);
    return this.dialect.lockRows(query, true).getMany();
  }

  async statuses(ids: string[], now: number): Promise<Map<string, TaskStatus>> {
    const out = new Map<string, TaskStatus>();
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = ids.slice(i, i + ID_CHUNK);
      const rows = await this.dialect.read((m) =>
        m
          .createQueryBuilder(McpTaskEntity, 't')
          .select(['t.id', 't.status'])
          .where('t.id IN (:...chunk)', { chunk })
          .andWhere(UNEXPIRED, { now })
          .getMany(),
      );
      for (const row of rows) out.set(row.id, row.status);
    }
    return out;
  }

  listTasks(query: TaskListQuery, now: number): Promise<TaskListPage> {
    return this.dialect.read((m) => listTasks(m, query, now));
  }

  taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts> {
    return this.dialect.read((m) => taskCounts(m, query, now));
  }

  taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity> {
    return this.dialect.read((m) => taskActivity(m, query, now));
  }

  private async writeChange(m: EntityManager, task: TaskRecord): Promise<void> {
    await m
      .createQueryBuilder()
      .update(McpTaskEntity)
      .set(changedColumns(task) as QueryDeepPartialEntity<McpTaskEntity>)
      .where('id = :id', { id: task.id })
      .execute();
  }

  /** Live = not terminal and not expired at `now`; the owner's, or everyone's. */
  private countLive(m: EntityManager, now: number, owner?: string): Promise<number> {
    const query = m
      .createQueryBuilder(McpTaskEntity, 't')
      .where('t.status IN (:...live)', { live: LIVE_STATUSES })
      .andWhere(UNEXPIRED, { now });
    if (owner !== undefined) query.andWhere('t.ownerKey = :owner', { owner });
    return query.getCount();
  }
}
