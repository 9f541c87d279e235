/** The table size of the first new generation of plans, in bytes; each later one at twice the last. */
export const FIRST_BYTES = 16 * 1024;
/** From this size on, plans made are kept for good (they use the primary key, right at any larger size). */
export const LAST_BYTES = 1 << 20;
/** How often a small table's size is looked at again, in ms. */
export const RECHECK_MS = 2_000;

/**
 * Which generation of prepared statements to send. PostgreSQL plans a named statement once per connection and
 * keeps that plan while the table grows, until autovacuum next analyzes it; a plan made while the table is a few
 * pages reads it sequentially, the cheapest way to find one row there. In the bench a batch of finishing writes
 * then took up to 2.5 s at a few thousand rows, and a read by id ~10 ms at 50 000. So while the table is small
 * the store looks at its size every couple of seconds, and each time it has doubled (from 16 KB to 1 MB) sends
 * its statements under new names, which PostgreSQL plans afresh for the table as it is: a kept plan is then at
 * most one doubling out of date. Plans made past 1 MB use the primary key and stay right as the table grows.
 */
export class PlanGenerations {
  private generation = 0;
  private final = false;
  private nextCheck = 0;

  /** `size`: the table's size in bytes. */
  constructor(private readonly size: () => Promise<number>) {}

  /** The generation to send statements under now; when due, looks at the table's size, without waiting for it. */
  current(): number {
    if (this.final) return this.generation;
    const now = Date.now();
    if (now >= this.nextCheck) {
      this.nextCheck = now + RECHECK_MS;
      // A failed look (the database unreachable) keeps the generation: tried again when next due.
      this.size().then(
        (bytes) => this.grown(bytes),
        () => undefined,
      );
    }
    return this.generation;
  }

  private grown(bytes: number): void {
    const doublings = bytes < FIRST_BYTES ? 0 : Math.floor(Math.log2(Math.min(bytes, LAST_BYTES) / FIRST_BYTES)) + 1;
    // Never back: a plan made for a larger table suits a smaller one.
    this.generation = Math.max(this.generation, doublings);
    this.final = bytes >= LAST_BYTES;
  }
}
