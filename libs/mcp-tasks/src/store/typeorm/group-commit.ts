import type { PromiseMutex } from './promise-mutex.js';

type Work = { run: () => Promise<unknown>; resolve: (v: unknown) => void; reject: (err: unknown) => void };

/** What a group commit needs from the connection: one statement run synchronously. */
export type Exec = (sql: string) => void;

/**
 * Write transactions asked for in the same turn of the event loop share one database transaction: each runs in
 * a savepoint of its own (an error rolls back that one alone and rejects only its caller), then one COMMIT for
 * all — and only then does any of them resolve, so each is still committed before its caller hears of it. On a
 * single connection where every COMMIT waits for the disk (SQLite in WAL mode syncs each commit), concurrent
 * writers then share that wait instead of queuing for one each.
 */
export class GroupCommit {
  private queue: Work[] = [];

  constructor(
    private readonly mutex: PromiseMutex,
    private readonly exec: Exec,
    /** Statement starting the transaction (SQLite: `BEGIN IMMEDIATE`). */
    private readonly begin: string,
  ) {}

  run<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: work, resolve: resolve as (v: unknown) => void, reject });
      // After the I/O callbacks of this turn: every write they asked for joins the transaction.
      if (this.queue.length === 1) setImmediate(() => void this.mutex.run(() => this.flush()));
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    const done: Array<() => void> = [];
    try {
      this.exec(this.begin);
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    try {
      for (const w of batch) {
        this.exec('SAVEPOINT mcp_write');
        try {
          const value = await w.run();
          this.exec('RELEASE mcp_write');
          done.push(() => w.resolve(value));
        } catch (err) {
          this.exec('ROLLBACK TO mcp_write');
          this.exec('RELEASE mcp_write');
          done.push(() => w.reject(err));
        }
      }
      this.exec('COMMIT');
    } catch (err) {
      try {
        this.exec('ROLLBACK');
      } catch {
        // Nothing to roll back (SQLite ended the transaction itself).
      }
      for (const w of batch) w.reject(err);
      return;
    }
    for (const settle of done) settle();
  }
}
