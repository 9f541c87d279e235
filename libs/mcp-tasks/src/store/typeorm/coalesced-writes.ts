/** Writes per statement at most: a bounded statement however many wait. */
const MAX_BATCH = 256;

type Waiter<T, R> = { item: T; resolve: (r: R) => void; reject: (err: unknown) => void };
/** `starting`: a lane is taken and sends at the end of this turn (writes asked for until then join it). */
type Queue<T, R> = { waiting: Array<Waiter<T, R>>; lanes: number; starting: boolean };

/**
 * Writes under one key go to the database at most `lanes` statements (or transactions) at a time, each carrying
 * every write that waited while the lanes were busy. A write that finds a lane free goes at the end of this turn
 * of the event loop, with every write asked for in the same turn: the creates or finishes that one reply of the
 * database sets off share a statement, rather than the first going alone and the rest behind it (statements, not
 * rows, are most of the database's work here, and each wakes a backend and then this process). Capped creates
 * (one lane): the cap locks are taken once per batch instead of once per create, one round trip carries many,
 * and the waiting happens here rather than on pooled connections other queries need. Tasks' compare-and-sets (a
 * few lanes): one UPDATE and one commit for many, and still enough of them at once to keep up with the tasks
 * that finish. Each write's outcome is its own (`send` answers one per item, in order), known once its batch
 * committed; a batch that fails rejects every write in it.
 */
export class CoalescedWrites<T, R> {
  private readonly queues = new Map<string, Queue<T, R>>();

  constructor(
    private readonly send: (items: T[]) => Promise<R[]>,
    private readonly lanes = 1,
  ) {}

  add(key: string, item: T): Promise<R> {
    return new Promise((resolve, reject) => {
      let queue = this.queues.get(key);
      if (!queue) this.queues.set(key, (queue = { waiting: [], lanes: 0, starting: false }));
      queue.waiting.push({ item, resolve, reject });
      if (queue.lanes < this.lanes && !queue.starting) {
        queue.lanes++;
        queue.starting = true;
        setImmediate(() => {
          queue.starting = false;
          void this.drain(key, queue);
        });
      }
    });
  }

  /** One lane: sends what waits, batch after batch, until nothing does; the last lane out forgets the key. */
  private async drain(key: string, queue: Queue<T, R>): Promise<void> {
    while (queue.waiting.length) {
      const batch = queue.waiting.splice(0, MAX_BATCH);
      try {
        const outcomes = await this.send(batch.map((w) => w.item));
        batch.forEach((w, i) => w.resolve(outcomes[i]));
      } catch (err) {
        for (const w of batch) w.reject(err);
      }
    }
    if (--queue.lanes === 0) this.queues.delete(key);
  }
}
