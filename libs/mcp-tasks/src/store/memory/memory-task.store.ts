import { ownerKeyOnServer } from '../../owner/owner-key.js';
import { isTerminal, type TaskError, type TaskStatus } from '../../protocol/wire.interface.js';
import { applyTaskChange, hasLapsedLease, hasLapsedMirror, isLive } from '../apply-task-change.js';
import { activityOf, countsOf, listByOwnerIn, listTasksIn } from './memory-task.queries.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.interface.js';
import type { TaskListing } from '../capabilities/task-listing.interface.js';
import type { TaskMirrors } from '../capabilities/task-mirrors.interface.js';
import type { TaskQueries } from '../capabilities/task-queries.interface.js';
import type { TaskStore } from '../task-store.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from '../task.record.js';

/**
 * The default store: a Map in this process. Tasks live on one node only and are lost on restart;
 * use a shared store when the endpoint runs on several instances. Every capability but `SharedTaskStore` and
 * `ResumableTasks`: a task here dies with its process, so there is nothing left to resume.
 * @publicApi
 */
export class MemoryTaskStore implements TaskStore, TaskListing, TaskMirrors, TaskQueries {
  private readonly tasks = new Map<string, TaskRecord>();
  /** Live task ids per owner, so the cap check does not scan every task. */
  private readonly liveByOwner = new Map<string, Set<string>>();

  async create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome> {
    const now = task.createdAt;
    const own = this.live(task.owner, now);
    if (own.size >= limits.maxPerOwner) return 'owner-limit';
    if (limits.maxTotal !== Infinity && this.countLive(now) >= limits.maxTotal) return 'server-limit';
    this.tasks.set(task.id, task);
    own.add(task.id);
    this.liveByOwner.set(task.owner, own);
    return 'created';
  }

  async get(id: string, now: number): Promise<TaskRecord | undefined> {
    return this.read(id, now);
  }

  async update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    // Read, apply and write with no await in between: that is what makes the change atomic here.
    const task = this.read(id, now);
    if (!task) return undefined;
    const next = applyTaskChange(task, change, now);
    if (!next) return { task, changed: false };
    this.tasks.set(id, next);
    if (!isLive(next, now)) this.liveByOwner.get(next.owner)?.delete(id);
    return { task: next, changed: true };
  }

  async renewLeases(ids: string[], owner: string, until: number): Promise<string[]> {
    const renewed: string[] = [];
    for (const id of ids) {
      const task = this.tasks.get(id);
      if (!task || isTerminal(task.status) || (task.leaseOwner != null && task.leaseOwner !== owner)) continue;
      this.tasks.set(id, { ...task, leaseOwner: owner, leaseExpiresAt: until });
      renewed.push(id);
    }
    return renewed;
  }

  async reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]> {
    // No await inside: a second caller only ever sees tasks this one has already failed.
    const reclaimed: string[] = [];
    for (const task of this.tasks.values()) {
      if (reclaimed.length >= limit) break;
      if (!hasLapsedLease(task, now)) continue;
      const next = applyTaskChange(task, { kind: 'finish', status: 'failed', error }, now);
      if (!next) continue;
      this.tasks.set(task.id, next);
      this.liveByOwner.get(task.owner)?.delete(task.id);
      reclaimed.push(task.id);
    }
    return reclaimed;
  }

  async adoptLapsedMirrors(
    now: number,
    limit: number,
    owner: string,
    until: number,
    server?: string,
  ): Promise<TaskRecord[]> {
    // No await inside: a second caller sees the new lease and leaves the task alone.
    const adopted: TaskRecord[] = [];
    for (const task of this.tasks.values()) {
      if (adopted.length >= limit) break;
      if (!hasLapsedMirror(task, now)) continue;
      if (server !== undefined && !ownerKeyOnServer(task.owner, server)) continue;
      const next = { ...task, leaseOwner: owner, leaseExpiresAt: until };
      this.tasks.set(task.id, next);
      adopted.push(next);
    }
    return adopted;
  }

  async statuses(ids: string[], now: number): Promise<Map<string, TaskStatus>> {
    const out = new Map<string, TaskStatus>();
    for (const id of ids) {
      const task = this.read(id, now);
      if (task) out.set(id, task.status);
    }
    return out;
  }

  async sweep(now: number, limit: number): Promise<number> {
    let removed = 0;
    for (const task of this.tasks.values()) {
      if (removed >= limit) break;
      if (task.expiresAt !== null && task.expiresAt <= now) {
        this.tasks.delete(task.id);
        this.liveByOwner.get(task.owner)?.delete(task.id);
        removed++;
      }
    }
    return removed;
  }

  async listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
    return listByOwnerIn(this.tasks.values(), query, now);
  }

  async listTasks(query: TaskListQuery, now: number): Promise<TaskListPage> {
    return listTasksIn(this.tasks.values(), query, now);
  }

  async taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts> {
    return countsOf(this.tasks.values(), query, now);
  }

  async taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity> {
    return activityOf(this.tasks.values(), query, now);
  }

  private read(id: string, now: number): TaskRecord | undefined {
    const task = this.tasks.get(id);
    return task && (task.expiresAt === null || task.expiresAt > now) ? task : undefined;
  }

  /** The owner's live set, with expired entries dropped on the way. */
  private live(owner: string, now: number): Set<string> {
    const ids = this.liveByOwner.get(owner) ?? new Set<string>();
    for (const id of ids) {
      const task = this.tasks.get(id);
      if (!task || !isLive(task, now)) ids.delete(id);
    }
    if (ids.size === 0) this.liveByOwner.delete(owner);
    return ids;
  }

  private countLive(now: number): number {
    let n = 0;
    for (const owner of this.liveByOwner.keys()) n += this.live(owner, now).size;
    return n;
  }
}
