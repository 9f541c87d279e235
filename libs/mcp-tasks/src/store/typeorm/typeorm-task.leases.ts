import { ownerKeyOnServer, serverKeyNeedle } from '../../owner/owner-key.js';
import type { TaskError } from '../../protocol/wire.interface.js';
import { applyTaskChange, hasLapsedLease, hasLapsedMirror, hasLapsedRun } from '../apply-task-change.js';
import type { LapsedRuns, ResumableTasks } from '../capabilities/resumable-tasks.interface.js';
import { runTakeover } from '../run-takeover.js';
import type { TaskRecord } from '../task.record.js';
import type { KnownVersions } from './known-versions.js';
import { LeaseSql } from './lease-sql.js';
import type { SqlSession, StoreDialect } from './store-dialect.js';
import type { RawRow, TaskColumns } from './task-columns.js';
import { toRecord } from './task-row.mapper.js';
import type { TaskSql } from './task-sql.js';
import { writeChange } from './write-change.js';

/** Ids per statement: a bounded statement however many tasks an instance runs. */
const ID_CHUNK = 500;
/** What a takeover of a resumable run moves. */
const TAKEOVER = ['leaseOwner', 'leaseExpiresAt', 'attempt', 'statusMessage', 'updatedAt'] as const;

type Notes = Parameters<ResumableTasks['adoptLapsedRuns']>[4];

/**
 * `TypeOrmTaskStore`'s leases: renewing, reclaiming, taking over and handing over. Each search for lapsed leases
 * picks its rows with SKIP LOCKED in the transaction that writes them (SQLite: under the database's write lock), so
 * instances share the work out without waiting on each other and each task goes to one caller only.
 */
export class TypeOrmLeases {
  private readonly leases: LeaseSql;

  constructor(
    private readonly dialect: StoreDialect,
    private readonly columns: TaskColumns,
    private readonly sql: TaskSql,
    private readonly versions: KnownVersions,
  ) {
    this.leases = new LeaseSql(columns, dialect.flavour);
  }

  async renew(ids: string[], owner: string, until: number): Promise<string[]> {
    const renewed: string[] = [];
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = this.dialect.flavour.idList(ids.slice(i, i + ID_CHUNK));
      const rows = await this.dialect.one.rows(this.leases.renew, [owner, until, chunk]);
      for (const row of rows) renewed.push(row.id as string);
    }
    return renewed;
  }

  async release(ids: string[], owner: string): Promise<void> {
    for (let i = 0; i < ids.length; i += ID_CHUNK) {
      const chunk = this.dialect.flavour.idList(ids.slice(i, i + ID_CHUNK));
      await this.dialect.one.changed(this.leases.release, [chunk, owner]);
    }
  }

  reclaim(now: number, limit: number, error: TaskError): Promise<string[]> {
    return this.dialect.write(async (tx) => {
      const reclaimed: string[] = [];
      for (const task of await this.lapsed(tx, 'tasks', now, limit)) {
        // The query only narrows; the rule itself is the shared one.
        if (!hasLapsedLease(task, now)) continue;
        const next = applyTaskChange(task, { kind: 'finish', status: 'failed', error }, now);
        if (!next) continue;
        await writeChange(tx, this.sql, this.columns, next);
        reclaimed.push(task.id);
      }
      return reclaimed;
    });
  }

  adoptMirrors(now: number, limit: number, owner: string, until: number, server?: string): Promise<TaskRecord[]> {
    return this.dialect.write(async (tx) => {
      const lapsed = await this.lapsed(tx, 'mirrors', now, limit, [needleOf(server)]);
      const adopted = lapsed.filter((t) => hasLapsedMirror(t, now) && ofServer(t, server));
      if (adopted.length === 0) return [];
      await tx.changed(this.leases.take, [owner, until, this.dialect.flavour.idList(adopted.map((t) => t.id))]);
      for (const task of adopted) this.versions.take(task.id);
      return adopted.map((task) => ({ ...task, leaseOwner: owner, leaseExpiresAt: until }));
    });
  }

  adoptRuns(
    now: number,
    limit: number,
    owner: string,
    until: number,
    notes: Notes,
    server?: string,
  ): Promise<LapsedRuns> {
    return this.dialect.write(async (tx) => {
      const runs: LapsedRuns = { adopted: [], exhausted: [] };
      for (const task of await this.lapsed(tx, 'runs', now, limit, [needleOf(server)])) {
        if (!hasLapsedRun(task, now) || !ofServer(task, server)) continue;
        this.versions.take(task.id);
        const takeover = runTakeover(task, owner, until, notes, now);
        if (!('next' in takeover)) {
          if (!takeover.exhausted) continue;
          await writeChange(tx, this.sql, this.columns, takeover.exhausted);
          runs.exhausted.push(task.id);
          continue;
        }
        const moved = takeover.next;
        const columns = this.columns.of(TAKEOVER);
        await tx.changed(this.sql.update(columns), [task.id, ...this.columns.encode(moved, columns)]);
        runs.adopted.push(Object.assign({}, task, moved));
      }
      return runs;
    });
  }

  private async lapsed(tx: SqlSession, kind: 'tasks' | 'mirrors' | 'runs', now: number, limit: number, more = ['']) {
    const rows: RawRow[] = await tx.rows(this.leases.lapsedLeases(kind), [
      now,
      limit,
      ...(kind === 'tasks' ? [] : more),
    ]);
    return rows.map((raw) => toRecord(this.columns.decode(raw)));
  }
}

/** What the lapsed-lease search narrows a server's rows by ('' for every server's). */
const needleOf = (server?: string): string => (server === undefined ? '' : serverKeyNeedle(server));
/** The task is `server`'s (or no server was asked for): its parsed owner key says so. */
const ofServer = (task: TaskRecord, server?: string): boolean =>
  server === undefined || ownerKeyOnServer(task.owner, server);
