import type { TaskStatus } from '../protocol/wire.interface.js';

/**
 * Re-reads the status of tasks whose follow just took effect (`TaskEventBus.follow`'s `onActive`): an event another
 * instance published before then was not relayed here. A bus calls the `onActive` of the follows one round trip
 * covered in one turn of the event loop, so the tasks added in a turn are read at its end, in one batch.
 */
export class FollowRecheck<T> {
  private due?: Array<[string, T]>;

  constructor(
    /** The status of each of `ids` that exists (`readStatuses`). */
    private readonly read: (ids: string[]) => Promise<Map<string, TaskStatus>>,
    /** What the follower does with task `id`'s status (`undefined`: gone) for the `item` added with it. */
    private readonly react: (item: T, status: TaskStatus | undefined, id: string) => void,
    /** The read failed: the follower's next poll catches up. */
    private readonly failed: (err: Error) => void = () => {},
  ) {}

  /** Re-reads task `id` at the end of this turn, with the others added in it, then reacts for `item`. */
  add(id: string, item: T): void {
    if (this.due) return void this.due.push([id, item]);
    const due: Array<[string, T]> = (this.due = [[id, item]]);
    setImmediate(() => {
      this.due = undefined;
      void this.reread(due);
    });
  }

  private async reread(due: Array<[string, T]>): Promise<void> {
    let statuses: Map<string, TaskStatus>;
    try {
      statuses = await this.read([...new Set(due.map(([id]) => id))]);
    } catch (err) {
      return this.failed(err as Error);
    }
    for (const [id, item] of due) this.react(item, statuses.get(id), id);
  }
}
