/** Senders remembered at most (instances come and go over a process's life: a rolling deploy adds new ones). */
const SENDERS = 1_024;

/**
 * The newest notice heard from each sender. One sender's notices arrive in the order it sent them, whichever of
 * this instance's channels carries each, so a count at or below the newest is a copy (the same event on a second
 * followed topic) and is dropped: an event is delivered once per instance.
 */
export class SeenNotices {
  private readonly newest = new Map<string, number>();

  /** Whether `seq` from `instance` is new (and remembers it). A notice without a count is always new. */
  fresh(instance: string, seq: unknown): boolean {
    if (typeof seq !== 'number') return true;
    const last = this.newest.get(instance);
    if (last !== undefined && seq <= last) return false;
    // Re-inserted, so the least recently heard sender is the first one dropped.
    this.newest.delete(instance);
    this.newest.set(instance, seq);
    if (this.newest.size > SENDERS) this.newest.delete(this.newest.keys().next().value!);
    return true;
  }
}
