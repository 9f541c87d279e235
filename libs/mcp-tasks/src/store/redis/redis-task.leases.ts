import { ownerKeyOnServer, serverKeyNeedle } from '../../owner/owner-key.js';
import type { TaskError } from '../../protocol/wire.interface.js';
import { applyTaskChange, hasLapsedLease, hasLapsedMirror, hasLapsedRun } from '../apply-task-change.js';
import type { LapsedRuns, ResumableTasks } from '../capabilities/resumable-tasks.interface.js';
import { runTakeover } from '../run-takeover.js';
import type { TaskRecord } from '../task.record.js';
import { casWrite, type CasWrite } from './redis-cas.writer.js';
import { decodeTask, pairsToHash } from './redis-task.codec.js';
import type { RedisScripts } from './redis-scripts.js';

type Notes = Parameters<ResumableTasks['adoptLapsedRuns']>[4];
type LapsedKind = 'tasks' | 'mirrors' | 'runs';

/**
 * `RedisTaskStore`'s takeovers. A script picks the lapsed tasks, Node applies the shared rules to them, and one
 * compare-and-set script writes the outcome: a task another caller took or changed in between is left out, so each
 * task goes to one caller only however many instances search at once.
 */
export class RedisLeases {
  constructor(private readonly scripts: RedisScripts) {}

  async reclaim(now: number, limit: number, error: TaskError): Promise<string[]> {
    const writes: CasWrite[] = [];
    for (const read of await this.lapsed('tasks', now, limit)) {
      if (!hasLapsedLease(read.task, now)) continue;
      const next = applyTaskChange(read.task, { kind: 'finish', status: 'failed', error }, now);
      if (next) writes.push({ ...read, next });
    }
    const done = await casWrite(this.scripts, writes);
    return writes.filter((w) => done.has(w.task.id)).map((w) => w.task.id);
  }

  async adoptMirrors(now: number, limit: number, owner: string, until: number, server?: string) {
    const writes: CasWrite[] = [];
    for (const read of await this.lapsed('mirrors', now, limit, server)) {
      if (!hasLapsedMirror(read.task, now) || !ofServer(read.task, server)) continue;
      writes.push({ ...read, next: Object.assign({}, read.task, { leaseOwner: owner, leaseExpiresAt: until }) });
    }
    const done = await casWrite(this.scripts, writes);
    return writes.filter((w) => done.has(w.task.id)).map((w) => w.next);
  }

  async adoptRuns(now: number, limit: number, owner: string, until: number, notes: Notes, server?: string) {
    const writes: Array<CasWrite & { exhausted: boolean }> = [];
    for (const read of await this.lapsed('runs', now, limit, server)) {
      const task = read.task;
      if (!hasLapsedRun(task, now) || !ofServer(task, server)) continue;
      const takeover = runTakeover(task, owner, until, notes, now);
      if ('next' in takeover) writes.push({ ...read, next: Object.assign({}, task, takeover.next), exhausted: false });
      else if (takeover.exhausted) writes.push({ ...read, next: takeover.exhausted, exhausted: true });
    }
    const done = await casWrite(this.scripts, writes);
    const runs: LapsedRuns = { adopted: [], exhausted: [] };
    for (const w of writes.filter((w) => done.has(w.task.id)))
      if (w.exhausted) runs.exhausted.push(w.task.id);
      else runs.adopted.push(w.next);
    return runs;
  }

  private async lapsed(kind: LapsedKind, now: number, limit: number, server?: string) {
    const rows = await this.scripts.run<string[][]>('lapsed', now, finite(limit), kind, needleOf(server));
    return rows.map((flat) => decodeTask(pairsToHash(flat))!).filter(Boolean);
  }
}

/** A limit a script can count to. */
export const finite = (limit: number): number => (Number.isFinite(limit) ? limit : Number.MAX_SAFE_INTEGER);

/** A server's needle as it appears inside the owner field's JSON ('' for every server). */
const needleOf = (server?: string): string =>
  server === undefined ? '' : JSON.stringify(serverKeyNeedle(server)).slice(1, -1);

const ofServer = (task: TaskRecord, server?: string): boolean =>
  server === undefined || ownerKeyOnServer(task.owner, server);
