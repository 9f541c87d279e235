import { Injectable, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The instance's name in the ledger: `REL_INSTANCE` (the suite sets it), else the pid. */
export const INSTANCE = process.env.REL_INSTANCE ?? `pid-${process.pid}`;

/**
 * Tables of the durable fixture tool's own, beside the library's, in the store's database: every attempt it
 * started (`rel_attempts`), every question it got an answer to (`rel_answers`) and every completion it reached
 * (`rel_completions`), and every run that stopped short (`rel_stops`: a checkpoint the library refused, or the
 * run's signal aborted, with the reason). No unique keys: a task completed twice shows as two rows. A store without a
 * database (Redis) writes them to the PostgreSQL database `REL_LEDGER_URL` names; on the memory store, nothing.
 */
@Injectable()
export class DurableLedger implements OnModuleInit, OnModuleDestroy {
  /** The ledger's own connection (`REL_LEDGER_URL`), closed with the app. */
  private own?: DataSource;

  constructor(@Optional() private db?: DataSource) {}

  async onModuleInit(): Promise<void> {
    if (!this.db && process.env.REL_LEDGER_URL) {
      this.own = await new DataSource({ type: 'postgres', url: process.env.REL_LEDGER_URL }).initialize();
      this.db = this.own;
    }
    if (!this.db) return;
    for (const table of ['rel_attempts', 'rel_answers', 'rel_completions', 'rel_stops'])
      await this.db.query(
        `CREATE TABLE IF NOT EXISTS ${table} (task_id TEXT NOT NULL, attempt INTEGER NOT NULL, ` +
          `instance TEXT NOT NULL, label TEXT, detail TEXT, at BIGINT NOT NULL)`,
      );
  }

  async onModuleDestroy(): Promise<void> {
    await this.own?.destroy();
  }

  /** One row, written before the promise resolves. */
  async record(table: 'attempts' | 'answers' | 'completions' | 'stops', row: LedgerRow): Promise<void> {
    if (!this.db) return;
    const pg = this.db.options.type === 'postgres';
    const marks = pg ? '$1, $2, $3, $4, $5, $6' : '?, ?, ?, ?, ?, ?';
    await this.db.query(`INSERT INTO rel_${table} (task_id, attempt, instance, label, detail, at) VALUES (${marks})`, [
      row.taskId,
      row.attempt,
      INSTANCE,
      row.label ?? null,
      row.detail ?? null,
      Date.now(),
    ]);
  }
}

export interface LedgerRow {
  taskId: string;
  attempt: number;
  label?: string;
  detail?: string;
}
