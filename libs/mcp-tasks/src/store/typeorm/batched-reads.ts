type Waiter<Row> = { resolve: (row: Row | undefined) => void; reject: (err: unknown) => void };

/** Statements in flight at once: while they are out, further reads gather into the next one. */
const IN_FLIGHT = 2;

/**
 * Reads by id go to the database as one statement (`WHERE id = ANY(…)`) for all that arrived in the same
 * turn of the event loop, or, while `IN_FLIGHT` statements are already out, for all that arrived until one
 * came back: under load many `tasks/get`s share a round trip instead of each paying for one, and a lone
 * read never waits. Every read's statement is sent after it was asked for, so nothing is served from a cache.
 */
export class BatchedReads<Row> {
  private pending = new Map<string, Waiter<Row>[]>();
  private scheduled = false;
  private inFlight = 0;

  constructor(
    private readonly fetch: (ids: string[]) => Promise<Row[]>,
    private readonly idOf: (row: Row) => string,
  ) {}

  read(id: string): Promise<Row | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(id);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(id, [{ resolve, reject }]);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= IN_FLIGHT || !this.pending.size) return;
    this.scheduled = true;
    // After the I/O callbacks of this turn: every read they asked for joins the batch.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = new Map();
    this.scheduled = false;
    this.inFlight++;
    try {
      const rows = await this.fetch([...batch.keys()]);
      const byId = new Map(rows.map((row) => [this.idOf(row), row]));
      for (const [id, waiters] of batch) for (const w of waiters) w.resolve(byId.get(id));
    } catch (err) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
    } finally {
      this.inFlight--;
      this.schedule();
    }
  }
}
