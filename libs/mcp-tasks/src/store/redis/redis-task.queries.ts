import { ownerKeyForms } from '../../owner/owner-key.js';
import { activityOf, countsOf, listByOwnerIn, listTasksIn } from '../memory/memory-task.queries.js';
import type {
  OwnerTasksQuery,
  TaskActivity,
  TaskActivityQuery,
  TaskCounts,
  TaskCountsQuery,
  TaskListPage,
  TaskListQuery,
} from '../task-queries.interface.js';
import type { TaskRecord } from '../task.record.js';
import { decodeTask, pairsToHash } from './redis-task.codec.js';
import type { RedisScripts } from './redis-scripts.js';

const SUMMARY = ['id', 'owner', 'tool', 'status', 'statusMessage', 'createdAt', 'updatedAt', 'expiresAt'];
const LISTED = [...SUMMARY, 'leaseOwner', 'leaseExpiresAt', 'inputRequests'];
const COUNTED = ['id', 'owner', 'tool', 'status', 'expiresAt', 'leaseOwner', 'leaseExpiresAt'];
const ACTIVE = ['id', 'tool', 'status', 'createdAt', 'updatedAt', 'expiresAt'];

/**
 * `RedisTaskStore`'s listings and aggregates. A script reads what they need in one snapshot; the filtering, order
 * and arithmetic are the memory store's (one definition). The console's reads walk every unexpired task in the
 * range asked for (the SQL stores' do too, in the database): fine for a console, not for a hot path.
 */
export class RedisQueries {
  constructor(private readonly scripts: RedisScripts) {}

  async listByOwner(query: OwnerTasksQuery, now: number): Promise<TaskRecord[]> {
    const session = query.session;
    const mode = session === undefined ? 'any' : session === null ? 'none' : 'one';
    const forms = ownerKeyForms(query.owner).map((o) => JSON.stringify(o));
    const rows = await this.scripts.run<string[][]>(
      'ownerList',
      now,
      query.limit,
      query.after ? query.after.createdAt : '',
      mode,
      JSON.stringify(session ?? null),
      ...forms,
    );
    const tasks = rows.map((flat) => decodeTask(pairsToHash(flat))?.task).filter((t) => t !== undefined);
    return listByOwnerIn(tasks, query, now);
  }

  async listTasks(query: TaskListQuery, now: number): Promise<TaskListPage> {
    return listTasksIn(await this.scan(LISTED, now, query.createdFrom, query.createdBefore), query, now);
  }

  async taskCounts(query: TaskCountsQuery, now: number): Promise<TaskCounts> {
    return countsOf(await this.scan(COUNTED, now), query, now);
  }

  async taskActivity(query: TaskActivityQuery, now: number): Promise<TaskActivity> {
    return activityOf(await this.scan(ACTIVE, now), query, now);
  }

  /** `fields` of every task unexpired at `now` created in `[from, before)`, as (partial) records. */
  private async scan(fields: string[], now: number, from?: number, before?: number): Promise<TaskRecord[]> {
    const min = from === undefined ? '-inf' : String(from);
    const max = before === undefined ? '+inf' : `(${before}`;
    const rows = await this.scripts.run<Array<Array<string | null>>>('scan', now, min, max, ...fields);
    return rows.map((values) => {
      const task: Record<string, unknown> = {};
      fields.forEach((f, i) => {
        if (values[i] !== null) task[f] = JSON.parse(values[i]!);
      });
      return task as unknown as TaskRecord;
    });
  }
}
