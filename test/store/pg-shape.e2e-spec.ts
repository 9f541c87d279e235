import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRequire } from 'node:module';
import type { PoolClient, QueryConfig } from 'pg';
import { DataSource } from 'typeorm';
import { canPipeline, sendTogether } from '../../libs/mcp-tasks/src/store/typeorm/pg-pipeline.adapter.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';

/** pg's version, as installed: pipeline mode came with 8.23. */
const pgVersion = (createRequire(import.meta.url)('pg/package.json') as { version: string }).version;
const [major, minor] = pgVersion.split('.').map(Number);
const pipelines = major > 8 || (major === 8 && minor >= 23);

/** A message's type, first byte of what pg writes: `Q` a simple query, `S` the Sync that ends an extended one. */
const ends = (chunk: unknown) => Buffer.isBuffer(chunk) && (chunk[0] === 0x51 || chunk[0] === 0x53);

/**
 * The private parts of `pg` the store's pg adapter (`pg-pipeline.adapter.ts`) relies on, checked on the installed
 * version: this fails when pg changes them, before the store silently falls back to one round trip per statement.
 * Clients come as the store takes them: from TypeORM's pool, through its public `QueryRunner`.
 */
describe(`pg ${pgVersion}: the shape the pipelining adapter relies on`, () => {
  let db: TestPostgres;
  let ds: DataSource;
  beforeAll(async () => {
    db = await startPostgres();
    ds = await new DataSource({ type: 'postgres', url: db.url }).initialize();
  }, 60_000);
  afterAll(async () => {
    await ds?.destroy();
    await db?.stop();
  });

  async function withClient(work: (client: PoolClient) => Promise<void>): Promise<void> {
    const runner = ds.driver.createQueryRunner('master');
    const client = (await runner.connect()) as PoolClient;
    try {
      await work(client);
    } finally {
      await runner.release();
    }
  }

  const batch: QueryConfig[] = [
    { text: 'BEGIN' },
    { name: 'shape_one', text: 'SELECT $1::int AS n', values: [1] },
    { name: 'shape_two', text: 'SELECT $1::int AS n', values: [2] },
    { text: 'COMMIT' },
  ];

  (pipelines ? it : it.skip)('a pooled client has pipeline: false as a writable own field, and a corkable socket', () =>
    withClient(async (client) => {
      const c = client as unknown as { pipeline: unknown; connection: { stream: Record<string, unknown> } };
      expect(c.pipeline).toBe(false);
      expect(Object.getOwnPropertyDescriptor(c, 'pipeline')?.writable).toBe(true);
      expect(typeof c.connection.stream.cork).toBe('function');
      expect(typeof c.connection.stream.uncork).toBe('function');
      expect(canPipeline(client)).toBe(true);
    }),
  );

  (pipelines ? it : it.skip)(
    'sendTogether writes every query before the first answer, in one corked write, and puts the client back',
    () =>
      withClient(async (client) => {
        const stream = (client as unknown as { connection: { stream: NodeJS.WritableStream } }).connection.stream;
        const write = stream.write.bind(stream);
        const corked = () => (stream as unknown as { writableCorked: number }).writableCorked;
        /** For each query's last message: whether the socket was corked when it was written. */
        const written: boolean[] = [];
        stream.write = ((chunk: unknown, ...rest: never[]) => {
          if (ends(chunk)) written.push(corked() > 0);
          return write(chunk as Buffer, ...rest);
        }) as typeof stream.write;
        try {
          const sent = sendTogether(client, batch);
          // Synchronously, before any answer could arrive: all four are on their way, held for one write.
          expect(written).toEqual(batch.map(() => true));
          const results = await sent;
          expect(results.map((r) => r.command)).toEqual(['BEGIN', 'SELECT', 'SELECT', 'COMMIT']);
          expect(results[2].rows).toEqual([{ n: 2 }]);
        } finally {
          delete (stream as { write?: unknown }).write;
        }
        expect((client as unknown as { pipeline: unknown }).pipeline).toBe(false);
        expect(corked()).toBe(0);
        // Back to one query at a time: a later query on the client answers as ever.
        expect((await client.query('SELECT 3 AS n')).rows).toEqual([{ n: 3 }]);
      }),
  );

  it('a failing statement fails the batch with its error; the client is usable again after ROLLBACK', () =>
    withClient(async (client) => {
      const failing = [batch[0], { text: 'SELECT 1/0' }, batch[3]];
      await expect(sendTogether(client, failing)).rejects.toThrow(/division by zero/);
      await client.query('ROLLBACK');
      expect((await client.query('SELECT 1 AS n')).rows).toEqual([{ n: 1 }]);
    }));

  (pipelines ? it.skip : it)('before pg 8.23 (no pipeline mode): sendTogether sends them one after another', () =>
    withClient(async (client) => {
      expect(canPipeline(client)).toBe(false);
      const results = await sendTogether(client, batch);
      expect(results.map((r) => r.command)).toEqual(['BEGIN', 'SELECT', 'SELECT', 'COMMIT']);
    }),
  );
});
