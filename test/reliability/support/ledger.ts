import { DataSource } from 'typeorm';
import { query } from './context.js';

/** One row of `rel_durable`'s ledger tables (see the fixture's `DurableLedger`). */
export interface LedgerRow {
  task_id: string;
  attempt: number;
  instance: string;
  label: string | null;
  detail: string | null;
  at: number;
}

/** What `rel_durable` wrote, table by table, each table's rows grouped by task. */
export interface Ledger {
  attempts: Map<string, LedgerRow[]>;
  answers: Map<string, LedgerRow[]>;
  completions: Map<string, LedgerRow[]>;
  stops: Map<string, LedgerRow[]>;
}

type Read = (sql: string) => Promise<Array<Record<string, unknown>>>;

/** The ledger in a PostgreSQL database. */
export const pgLedger = (url: string): Promise<Ledger> => readLedger((sql) => query(url, sql));

/** The ledger in a SQLite file. */
export async function sqliteLedger(file: string): Promise<Ledger> {
  const db = await new DataSource({ type: 'better-sqlite3', database: file }).initialize();
  try {
    return await readLedger((sql) => db.query(sql));
  } finally {
    await db.destroy();
  }
}

async function readLedger(read: Read): Promise<Ledger> {
  const table = async (name: string) => {
    const byTask = new Map<string, LedgerRow[]>();
    for (const raw of await read(`SELECT * FROM rel_${name} ORDER BY at, attempt`)) {
      const row = { ...raw, attempt: Number(raw.attempt), at: Number(raw.at) } as LedgerRow;
      byTask.set(row.task_id, [...(byTask.get(row.task_id) ?? []), row]);
    }
    return byTask;
  };
  return {
    attempts: await table('attempts'),
    answers: await table('answers'),
    completions: await table('completions'),
    stops: await table('stops'),
  };
}
