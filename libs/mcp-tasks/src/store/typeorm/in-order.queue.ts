const settle = (): void => undefined;

/**
 * Work under one key runs one at a time, in the order it was asked for; different keys run side by side. The
 * compare-and-set path alone would not keep a task's changes in that order: the second change's read and write
 * can reach PostgreSQL first (on pooled connections that were ready while the first's was still connecting), and
 * the first, retried on top of it, is then the one that stays.
 */
export class InOrderQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key);
    const result = before ? before.then(work) : work();
    const tail = result.then(settle, settle);
    this.tails.set(key, tail);
    // The last one out forgets the key, so the map holds only tasks with changes under way.
    void tail.then(() => this.tails.get(key) === tail && this.tails.delete(key));
    return result;
  }
}
