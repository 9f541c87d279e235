import type { OnApplicationShutdown } from '@nestjs/common';
import type { TaskError, TaskStatus } from '../../protocol/wire.interface.js';
import { applyTaskChange } from '../apply-task-change.js';
import type { LapsedRuns, ResumableTasks } from '../capabilities/resumable-tasks.interface.js';
import type { SharedTaskStore } from '../capabilities/shared-task-store.interface.js';
import type { TaskListing } from '../capabilities/task-listing.interface.js';
import type { TaskMirrors } from '../capabilities/task-mirrors.interface.js';
import type { TaskQueries } from '../capabilities/task-queries.interface.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.interface.js';
import type { TaskStore } from '../task-store.interface.js';
import type { CreateOutcome, TaskChange, TaskLimits, TaskRecord, UpdateOutcome } from '../task.record.js';
import { casWrite } from './redis-cas.writer.js';
import type { RedisClient } from './redis-client.interface.js';
import { DEFAULT_REDIS_PREFIX, RedisKeys } from './redis-keys.js';
import { RedisScripts } from './redis-scripts.js';
import { decodeTask, encodeTask } from './redis-task.codec.js';
import { finite, RedisLeases } from './redis-task.leases.js';
import { RedisQueries } from './redis-task.queries.js';

/** Compare-and-set rounds one `update` tries before giving up (each lost round means another write landed). */
const MAX_ROUNDS = 1_000;

/**
 * Tasks in Redis (`store: { type: 'redis' }`), shared by every instance on the same server and key prefix. Each
 * write is one Lua script, atomic on the server: creates count the caps and insert together, leases are renewed
 * and released in place, and a change computed in Node (the shared `applyTaskChange`) lands by compare-and-set on
 * the task's version, read again and retried when another write got there first. Every capability.
 * @publicApi
 */
export class RedisTaskStore
  implements TaskStore, TaskListing, TaskMirrors, TaskQueries, ResumableTasks, SharedTaskStore, OnApplicationShutdown
{
  readonly sharedAcrossProcesses = true as const;
  private readonly keys: RedisKeys;
  private readonly scripts: RedisScripts;
  private readonly leases: RedisLeases;
  private readonly queries: RedisQueries;
  private readonly owned: boolean;

  /** On `client` (an ioredis `Redis`); `owned`: the store closes it on shutdown. */
  constructor(
    private readonly client: RedisClient,
    options: { keyPrefix?: string; owned?: boolean } = {},
  ) {
    this.keys = new RedisKeys(options.keyPrefix ?? DEFAULT_REDIS_PREFIX);
    this.scripts = new RedisScripts(client, this.keys.prefix);
    this.leases = new RedisLeases(this.scripts);
    this.queries = new RedisQueries(this.scripts);
    this.owned = options.owned ?? false;
  }

  create(task: TaskRecord, limits: TaskLimits): Promise<CreateOutcome> {
    const cap = (n: number) => (Number.isFinite(n) ? n : 'inf');
    const [owner, expiry] = [JSON.stringify(task.owner), JSON.stringify(task.expiresAt)];
    const { maxPerOwner, maxTotal } = limits;
    const fields = encodeTask(task);
    const args = [task.id, owner, task.createdAt, cap(maxPerOwner), cap(maxTotal), task.createdAt, expiry, ...fields];
    return this.scripts.run<CreateOutcome>('create', ...args);
  }

  async get(id: string, now: number): Promise<TaskRecord | undefined> {
    return (await this.read(id, now))?.task;
  }

  async update(id: string, change: TaskChange, now: number): Promise<UpdateOutcome | undefined> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const read = await this.read(id, now);
      if (!read) return undefined;
      const next = applyTaskChange(read.task, change, now);
      if (!next) return { task: read.task, changed: false };
      if ((await casWrite(this.scripts, [{ ...read, next }])).size === 1) return { task: next, changed: true };
    }
    throw new Error(`RedisTaskStore: task ${id} changed under ${MAX_ROUNDS} updates in a row`);
  }

  sweep(now: number, limit: number): Promise<number> {
    return this.scripts.run<number>('sweep', now, Number.isFinite(limit) ? limit : -1);
  }

  async renewLeases(ids: string[], owner: string, until: number): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.scripts.run<string[]>('renew', JSON.stringify(owner), until, ...ids);
  }

  reclaimExpiredLeases(now: number, limit: number, error: TaskError): Promise<string[]> {
    return this.leases.reclaim(now, limit, error);
  }

  adoptLapsedMirrors(now: number, limit: number, owner: string, until: number, server?: string) {
    return this.leases.adoptMirrors(now, limit, owner, until, server);
  }

  adoptLapsedRuns(
    now: number,
    limit: number,
    owner: string,
    until: number,
    notes: Parameters<ResumableTasks['adoptLapsedRuns']>[4],
    server?: string,
  ): Promise<LapsedRuns> {
    return this.leases.adoptRuns(now, limit, owner, until, notes, server);
  }

  async releaseLeases(ids: string[], owner: string): Promise<void> {
    if (ids.length > 0) await this.scripts.run('release', JSON.stringify(owner), ...ids);
  }

  async statuses(ids: string[], now: number): Promise<Map<string, TaskStatus>> {
    const out = new Map<string, TaskStatus>();
    if (ids.length === 0) return out;
    const flat = await this.scripts.run<string[]>('statuses', now, ...ids);
    for (let i = 0; i + 1 < flat.length; i += 2) out.set(flat[i], JSON.parse(flat[i + 1]) as TaskStatus);
    return out;
  }

  listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
    return this.queries.listByOwner({ ...query, limit: finite(query.limit) }, now);
  }

  listTasks(query: TaskListQuery, now: number): Promise<TaskListPage> {
    return this.queries.listTasks(query, now);
  }

  taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts> {
    return this.queries.taskCounts(query, now);
  }

  taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity> {
    return this.queries.taskActivity(query, now);
  }

  /** Closes the connection the store opened (an app's own client stays open: the app closes it). */
  async onApplicationShutdown(): Promise<void> {
    if (!this.owned || this.client.status === 'end') return;
    await this.client.quit().catch(() => this.client.disconnect());
  }

  private async read(id: string, now: number) {
    const read = decodeTask(await this.client.hgetall(this.keys.task(id)));
    if (!read || (read.task.expiresAt !== null && read.task.expiresAt <= now)) return undefined;
    return read;
  }
}
