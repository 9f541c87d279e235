import { Redis } from 'ioredis';
import { RedisTaskStore } from '@mcp-tasks/nestjs';
import { query } from './context.js';

/** What a phase reads of a task, on any store. */
export interface TaskRow {
  id: string;
  status: string;
  isError: boolean;
  attempt: number;
  result: any;
  checkpoint?: unknown;
  /** Epoch ms. */
  leaseExpiresAt?: number;
}

/** The tasks of a cluster's store, read by the suite (not through an instance). */
export interface StoreView {
  kind: 'postgres' | 'redis';
  /** Every task in the store. */
  all(): Promise<TaskRow[]>;
  /** The tasks of `ids` that exist. */
  some(ids: string[]): Promise<TaskRow[]>;
  close(): Promise<void>;
}

const PG_ROW =
  `SELECT id, status, attempt, result, checkpoint, lease_expires_at, (result->>'isError')::boolean AS is_error ` +
  'FROM mcp_tasks';

/** The `mcp_tasks` table of a PostgreSQL database. */
export function pgView(db: string): StoreView {
  const read = async (sql: string, params: unknown[] = []) =>
    (await query<Record<string, any>>(db, sql, params)).map((r): TaskRow => ({
      id: r.id,
      status: r.status,
      isError: r.is_error === true,
      attempt: Number(r.attempt ?? 1),
      result: r.result,
      checkpoint: r.checkpoint ?? undefined,
      leaseExpiresAt: r.lease_expires_at === null ? undefined : Number(r.lease_expires_at),
    }));
  return {
    kind: 'postgres',
    all: () => read(PG_ROW),
    some: (ids) => read(`${PG_ROW} WHERE id = ANY($1)`, [ids]),
    close: async () => {},
  };
}

/** A Redis store (default key prefix), read with the library's own `RedisTaskStore`. */
export function redisView(url: string): StoreView {
  const client = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  client.on('error', () => undefined);
  const store = new RedisTaskStore(client);
  const some = async (ids: string[]): Promise<TaskRow[]> => {
    const now = Date.now();
    const tasks = await Promise.all(ids.map((id) => store.get(id, now)));
    return tasks.flatMap((t) =>
      t
        ? [
            {
              id: t.id,
              status: t.status,
              isError: t.result?.isError === true,
              attempt: t.attempt ?? 1,
              result: t.result,
              checkpoint: t.checkpoint,
              leaseExpiresAt: t.leaseExpiresAt ?? undefined,
            },
          ]
        : [],
    );
  };
  return {
    kind: 'redis',
    all: async () => {
      const ids: string[] = [];
      for await (const keys of client.scanStream({ match: 'mcp-tasks:t:*', count: 500 }))
        ids.push(...(keys as string[]).map((k) => k.slice('mcp-tasks:t:'.length)));
      return some(ids);
    },
    some,
    close: async () => {
      client.disconnect();
    },
  };
}
