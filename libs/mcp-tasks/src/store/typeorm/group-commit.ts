import type { PromiseMutex } from './promise-mutex.js';

type Work = { run: () => Promise<unknown>; resolve: (v: unknown) => void; reject: (err: unknown) => void };
type Outcome = { value: unknown } | { error: unknown };

/** What a group commit needs from the connection. */
export interface Connection {
  /** Opens the connection first when it is not (`undefined` when it is): awaited before each transaction. */
  ready(): Promise<void> | undefined;
  /** Runs one statement synchronously. */
  exec(sql: string): void;
  /** Whether a transaction is open: SQLite ends one by itself on some errors (disk full, I/O error, no memory). */
  inTransaction(): boolean;
}

/**
 * Write transactions asked for in the same turn of the event loop share one database transaction: each runs in
 * a savepoint of its own (an error rolls back that one alone and rejects only its caller), then one COMMIT for
 * all — and only then does any of them resolve, so each is still committed before its caller hears of it. On a
 * single connection where every COMMIT waits for the disk (SQLite in WAL mode syncs each commit), concurrent
 * writers then share that wait instead of queuing for one each.
 *
 * Some errors (SQLITE_FULL, SQLITE_IOERR, SQLITE_NOMEM) make SQLite roll back the whole transaction, not the
 * statement: the write that hit one fails, and the others of the batch — whose statements went with it — run
 * again, each in a transaction of its own (a work may therefore run twice: it acts only through its statements).
 */
export class GroupCommit {
  private queue: Work[] = [];
  /** The error on which SQLite ended the open transaction by itself. */
  private lost?: unknown;

  constructor(
    private readonly mutex: PromiseMutex,
    private readonly db: Connection,
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

  /**
   * Runs one statement of a write. None runs once the transaction is gone: outside one it would commit by itself
   * (a SAVEPOINT even begins a transaction its RELEASE commits) while its write is told it failed.
   */
  step<T>(statement: () => T): T {
    if (!this.db.inTransaction())
      throw new Error('SQLite rolled back the transaction of this write; statement not run', { cause: this.lost });
    try {
      return statement();
    } catch (err) {
      if (!this.db.inTransaction()) this.lost ??= err;
      throw err;
    }
  }

  private async flush(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    try {
      await this.db.ready();
    } catch (err) {
      for (const w of batch) w.reject(err);
      return;
    }
    // Alone, a write that fails takes no other with it.
    for (const w of await this.commit(batch)) await this.commit([w]);
  }

  /** Commits `batch` in one transaction; the writes to run again when SQLite rolled it back under another. */
  private async commit(batch: Work[]): Promise<Work[]> {
    const done: Array<() => void> = [];
    try {
      this.db.exec(this.begin);
    } catch (err) {
      for (const w of batch) w.reject(err);
      return [];
    }
    this.lost = undefined;
    try {
      for (const w of batch) {
        this.db.exec('SAVEPOINT mcp_write');
        const outcome = await outcomeOf(w);
        if (!this.db.inTransaction()) {
          w.reject(this.lost ?? ('error' in outcome ? outcome.error : new Error('SQLite ended the transaction')));
          return batch.filter((other) => other !== w);
        }
        if ('error' in outcome) this.db.exec('ROLLBACK TO mcp_write');
        this.db.exec('RELEASE mcp_write');
        done.push('error' in outcome ? () => w.reject(outcome.error) : () => w.resolve(outcome.value));
      }
      // A COMMIT that fails leaves nothing of the batch committed (SQLite keeps or rolls back the transaction).
      this.db.exec('COMMIT');
    } catch (err) {
      try {
        if (this.db.inTransaction()) this.db.exec('ROLLBACK');
      } catch {
        // The error below is the one that matters.
      }
      for (const w of batch) w.reject(err);
      return [];
    }
    for (const settle of done) settle();
    return [];
  }
}

async function outcomeOf(w: Work): Promise<Outcome> {
  try {
    return { value: await w.run() };
  } catch (error) {
    return { error };
  }
}
