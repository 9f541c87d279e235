import pg from 'pg';
import type { TestPostgres } from '../../support/postgres.js';
import type { Profile } from '../profile.js';
import type { Report } from './report.js';

/** What every phase gets: the report, the profile, and the run's PostgreSQL. */
export interface RunContext {
  report: Report;
  profile: Profile;
  pg: TestPostgres;
  /** A fresh database on the run's PostgreSQL, as a URL. */
  database(name: string): Promise<string>;
}

export async function createDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One query on a database URL (a short-lived connection). */
export async function query<T = Record<string, unknown>>(
  url: string,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Runs `fn` over `items` with at most `n` at a time. */
export async function inPool<T>(items: T[], n: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i], i);
      }
    }),
  );
}
