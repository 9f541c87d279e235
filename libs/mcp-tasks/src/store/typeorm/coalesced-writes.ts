import type { CreateOutcome, TaskRecord } from '../task.record.js';

/** Creates per statement at most: a bounded statement however many wait. */
const MAX_BATCH = 256;

type Waiter = { task: TaskRecord; resolve: (o: CreateOutcome) => void; reject: (err: unknown) => void };

/**
 * Capped creates under one key (the store's choice: all owners, or one) go to the database one transaction at a
 * time, each carrying every create that arrived while the one before it was out. Creates of one owner would wait
 * on the same cap lock anyway: this way the locks are taken once per batch instead of once per create, one round
 * trip carries many creates, and the waiting happens here rather than on pooled connections other queries need.
 * A lone create is sent at once. Each create's outcome is its own (the batch inserts rows in arrival order while
 * the caps leave room), known once the transaction has committed.
 */
export class CoalescedCreates {
  private readonly queues = new Map<string, Waiter[]>();

  constructor(private readonly send: (tasks: TaskRecord[]) => Promise<CreateOutcome[]>) {}

  create(key: string, task: TaskRecord): Promise<CreateOutcome> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) return void queue.push({ task, resolve, reject });
      this.queues.set(key, []);
      void this.drain(key, [{ task, resolve, reject }]);
    });
  }

  /** Sends `batch`, then whatever queued meanwhile, until the key's queue is empty (and forgotten). */
  private async drain(key: string, batch: Waiter[]): Promise<void> {
    while (batch.length) {
      try {
        const outcomes = await this.send(batch.map((w) => w.task));
        batch.forEach((w, i) => w.resolve(outcomes[i]));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
      const queue = this.queues.get(key)!;
      batch = queue.splice(0, MAX_BATCH);
    }
    this.queues.delete(key);
  }
}
