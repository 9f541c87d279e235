import type { ServerResponse } from 'node:http';
import { FollowRecheck } from '../events/follow.recheck.js';
import { META } from '../mcp-tasks.constants.js';
import { sseMessage } from '../protocol/sse.js';
import { isTerminal, type TaskStatus } from '../protocol/wire.interface.js';
import type { TaskRecord } from '../store/task.record.js';
import { toDetailedWireTask } from '../tasks/task.mapper.js';

/** What a client sees change: the status, or the set of outstanding input keys. */
const signature = (t: TaskRecord): string => `${t.status}|${Object.keys(t.inputRequests).sort().join(',')}`;

/** What a stream remembers of the last state it sent of a task. */
interface Sent {
  signature: string;
  status: TaskStatus;
  terminal: boolean;
}

const sent = (task: TaskRecord): Sent => ({
  signature: signature(task),
  status: task.status,
  terminal: isTerminal(task.status),
});

/**
 * The notifications of one listen. Per task, reads are made one after another — a change heard while one is in
 * flight is read again once it is back — so what is sent follows the store's order (a read never answers with an
 * older state than the one before it); a terminal status is final. Changes in quick succession may be sent as
 * one notification of the latest state. The bus is a hint: once a task's follow took effect, and every
 * `pollInterval`, one batch read of the statuses catches up a change whose event was not relayed here (published
 * before the follow took effect, or lost in a broker outage or reconnect).
 */
export class ListenStream {
  private readonly last = new Map<string, Sent>();
  private readonly reading = new Set<string>();
  private readonly changedMeanwhile = new Set<string>();
  private readonly early = new Set<string>();
  private started = false;
  private timer?: NodeJS.Timeout;
  private rechecking = false;
  /** Tasks whose follow took effect before `start`: re-read then. */
  private readonly activeEarly = new Set<string>();
  /** Tasks re-read once their follow took effect, those of one turn in one batch. */
  private readonly rechecks = new FollowRecheck<string>(
    (ids) => this.statuses(ids),
    (id, status) => this.reactTo(id, status),
  );

  constructor(
    private readonly res: ServerResponse,
    private readonly subscriptionId: string | number,
    private readonly read: (id: string) => Promise<TaskRecord | undefined>,
    /** The status of each of `ids` that exists (one batch read where the store has one). */
    private readonly statuses: (ids: string[]) => Promise<Map<string, TaskStatus>>,
    private readonly pollInterval: number,
    /** A task reached its final state: nothing more is sent of it (its events are no longer needed). */
    private readonly ended: (id: string) => void = () => {},
  ) {}

  /** Follows `task` from the state it was read in (before the acknowledgement). */
  follow(task: TaskRecord): void {
    const state = sent(task);
    this.last.set(task.id, state);
    if (state.terminal) this.ended(task.id);
  }

  get taskIds(): string[] {
    return [...this.last.keys()];
  }

  /** A task changed: notify (changes heard before `start` wait for it). */
  changed(id: string): void {
    if (!this.last.has(id)) return;
    if (this.started) void this.push(id);
    else this.early.add(id);
  }

  /**
   * `id`'s follow took effect on the bus: its status is re-read once (with the others of this turn; at `start` if
   * before) — an event published before then was not relayed here, and the read before the acknowledgement may
   * predate it.
   */
  followActive(id: string): void {
    if (this.started) this.rechecks.add(id, id);
    else this.activeEarly.add(id);
  }

  /** The acknowledgement went out: from now on changes are sent. */
  start(): void {
    this.started = true;
    for (const id of this.early) void this.push(id);
    this.early.clear();
    for (const id of this.activeEarly) this.rechecks.add(id, id);
    this.activeEarly.clear();
    this.timer = setInterval(() => void this.recheck(), this.pollInterval);
    this.timer.unref();
  }

  /** The stream closed: no more re-reads. */
  stop(): void {
    clearInterval(this.timer);
  }

  /**
   * A status that differs from the last one sent is read and sent in full, as a change heard on the bus is; so is a
   * task still `input_required` (its questions may have changed without its status: `send` drops an unchanged one).
   */
  private async recheck(): Promise<void> {
    const open = [...this.last].filter(([, s]) => !s.terminal).map(([id]) => id);
    if (this.rechecking || this.gone || open.length === 0) return;
    this.rechecking = true;
    try {
      const now = await this.statuses(open);
      for (const id of open) this.reactTo(id, now.get(id));
    } catch {
      // The next round (or the bus) catches up.
    } finally {
      this.rechecking = false;
    }
  }

  /** A re-read status: one that differs from the last sent, or `input_required`, reads the task in full. */
  private reactTo(id: string, status: TaskStatus | undefined): void {
    const last = this.last.get(id);
    if (!last || last.terminal || status === undefined) return;
    if (status !== last.status || status === 'input_required') void this.push(id);
  }

  private get gone(): boolean {
    return this.res.writableEnded || this.res.destroyed;
  }

  private async push(id: string): Promise<void> {
    if (this.reading.has(id)) {
      this.changedMeanwhile.add(id);
      return;
    }
    this.reading.add(id);
    try {
      do {
        this.changedMeanwhile.delete(id);
        // A failed read only skips this change; the next one (or the client's poll) catches up.
        const task = await this.read(id).catch(() => undefined);
        if (task && !this.gone) this.send(task);
      } while (this.changedMeanwhile.has(id) && !this.gone);
    } finally {
      this.reading.delete(id);
    }
  }

  private send(task: TaskRecord): void {
    const before = this.last.get(task.id);
    const now = sent(task);
    if (!before || before.terminal || before.signature === now.signature) return;
    this.last.set(task.id, now);
    if (now.terminal) this.ended(task.id);
    this.res.write(
      sseMessage({
        method: 'notifications/tasks',
        params: {
          ...toDetailedWireTask(task, this.pollInterval),
          _meta: { [META.subscriptionId]: this.subscriptionId },
        },
      }),
    );
  }
}
