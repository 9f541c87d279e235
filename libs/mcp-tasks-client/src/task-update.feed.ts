import type { TaskUpdateListener } from './await-task-options.interface.js';
import type { McpTask } from './mcp-task.interface.js';

const TERMINAL = new Set<string>(['completed', 'failed', 'cancelled']);

/**
 * Hands an `onUpdate` listener each distinct state of one task, in order. A state is new when its status,
 * statusMessage or set of outstanding input keys differs from the last one handed over; the rest of a
 * snapshot (times, poll hint) changes on every read. Polls and notifications can cross, so a snapshot older
 * than the last one handed over (by `lastUpdatedAt`) and anything after a terminal state are dropped.
 */
export class TaskUpdateFeed {
  private lastKey?: string;
  private lastAt = -Infinity;
  private ended = false;

  constructor(private readonly listener?: TaskUpdateListener) {}

  async offer(task: McpTask): Promise<void> {
    if (!this.listener || this.ended) return;
    const at = Date.parse(task.lastUpdatedAt);
    if (at < this.lastAt) return;
    const key = JSON.stringify([task.status, task.statusMessage ?? null, Object.keys(task.inputRequests ?? {}).sort()]);
    if (key === this.lastKey) return;
    this.lastKey = key;
    if (Number.isFinite(at)) this.lastAt = at;
    this.ended = TERMINAL.has(task.status);
    await this.listener(task);
  }
}

export const isTerminal = (status: string): boolean => TERMINAL.has(status);
