/** Writes per statement at most: a bounded statement however many wait. */
const MAX_BATCH = 256;

type Waiter<T, R> = { item: T; resolve: (r: R) => void; reject: (err: unknown) => void };

/**
 * Writes under one key go to the database one statement (or transaction) at a time, each carrying every write
 * that arrived while the one before it was out; a lone write is sent at once. Capped creates: the cap locks are
 * taken once per batch instead of once per create, one round trip carries many, and the waiting happens here
 * rather than on pooled connections other queries need. A task's compare-and-set: one UPDATE and one commit for
 * many. Each write's outcome is its own (`send` answers one per item, in order), known once the batch committed;
 * a batch that fails rejects every write in it.
 */
export class CoalescedWrites<T, R> {
  private readonly queues = new Map<string, Array<Waiter<T, R>>>();

  constructor(private readonly send: (items: T[]) => Promise<R[]>) {}

  add(key: string, item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) return void queue.push({ item, resolve, reject });
      this.queues.set(key, []);
      void this.drain(key, [{ item, resolve, reject }]);
    });
  }

  /** Sends `batch`, then whatever queued meanwhile, until the key's queue is empty (and forgotten). */
  private async drain(key: string, batch: Array<Waiter<T, R>>): Promise<void> {
    while (batch.length) {
      try {
        const outcomes = await this.send(batch.map((w) => w.item));
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
