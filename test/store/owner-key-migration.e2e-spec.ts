import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, type DataSourceOptions } from 'typeorm';
import {
  mcpTasksEntities,
  mcpTasksMigrations,
  TypeOrmTaskStore,
  VersionMcpTasksOwnerKeys1796215433000,
} from '@mcp-tasks/nestjs/typeorm';
import { createAuthApp } from '../fixtures/auth-app.js';
import { legacyHeaders, post, request } from '../support/legacy-wire.js';
import { rpc, TASKS } from '../support/mcp-request.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { hs256, RESOURCE } from '../support/tokens.js';

/** Callers of the fixture app (server `files`); subjects an attacker would pick among them. */
const CALLERS: Record<string, { sub: string; azp: string }> = {
  alice: { sub: 'alice', azp: 'client-1' },
  aliceWeb: { sub: 'alice', azp: 'web' },
  bob: { sub: 'bob', azp: 'client-1' },
  tagged: { sub: 'v1:alice', azp: 'client-1' },
  bracket: { sub: '["alice"', azp: 'client-1' },
  quoted: { sub: 'alice","files', azp: 'client-1' },
};
/** The owner key as releases before the version tag wrote it: the bare JSON array. Written here by SQL. */
const earlierKey = ({ sub, azp }: { sub: string; azp: string }) => JSON.stringify([sub, 'files', azp, RESOURCE]);
const bearer = (who: string) => ({ authorization: `Bearer ${hs256(CALLERS[who])}` });
/** This migration and the ones after it, in the order they run: undone together, from the last. */
const FROM_IT = mcpTasksMigrations
  .slice(mcpTasksMigrations.indexOf(VersionMcpTasksOwnerKeys1796215433000))
  .map((M) => new M().name);

const dir = mkdtempSync(join(tmpdir(), 'mcp-owner-keys-'));
let pg: TestPostgres | undefined;
const DATABASES: Array<[string, () => Promise<DataSourceOptions>]> = [
  ['SQLite', async () => ({ type: 'better-sqlite3', database: join(dir, 'tasks.sqlite') })],
  ['PostgreSQL', async () => ({ type: 'postgres', url: (pg ??= await startPostgres()).url })],
];
afterAll(async () => {
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.each(DATABASES)('owner keys written by earlier releases, on %s', (_name, options) => {
  let ds: DataSource;
  let app: INestApplication;
  let url: URL;
  const $ = (n: number) => (ds.options.type === 'postgres' ? `$${n}` : '?');
  /** A finished task of `who` as an earlier release stored it (or any `key` given). */
  const insert = (id: string, who: string, key = earlierKey(CALLERS[who])) =>
    ds.query(
      `INSERT INTO mcp_tasks (id, owner_key, tool, status, input_requests, input_responses, required_scopes, result,
        created_at, updated_at) VALUES (${$(1)}, ${$(2)}, 'read_file', 'completed', '{}', '{}', '[]', ${$(3)}, 1, 1)`,
      [id, key, JSON.stringify({ content: [{ type: 'text', text: `of ${who}` }] })],
    );
  const keyOf = async (id: string) =>
    ((await ds.query(`SELECT owner_key FROM mcp_tasks WHERE id = ${$(1)}`, [id])) as { owner_key: string }[])[0]
      ?.owner_key;
  /** `tasks/get` of `id` as each caller: the owner's answer, and whether everyone else got the unknown task's bytes. */
  const asEveryone = async (id: string, owner: string) => {
    for (const who of Object.keys(CALLERS)) {
      const res = await rpc(app, 'tasks/get', { taskId: id }, { caps: TASKS, headers: bearer(who), id: 'same' });
      if (who === owner) {
        expect(res.body.result).toMatchObject({ taskId: id, status: 'completed' });
        continue;
      }
      const unknown = await rpc(
        app,
        'tasks/get',
        { taskId: 'X'.repeat(24) },
        { caps: TASKS, headers: bearer(who), id: 'same' },
      );
      expect([who, res.status, res.text]).toEqual([who, unknown.status, unknown.text]);
    }
  };
  const listed = async (who: string) => {
    const res = await post(url, request('tasks/list', {}), legacyHeaders(undefined, bearer(who)));
    return (res.body.result.tasks as { taskId: string }[]).map((t) => t.taskId).sort();
  };

  beforeAll(async () => {
    ds = await new DataSource({
      ...(await options()),
      entities: mcpTasksEntities,
      migrations: mcpTasksMigrations,
    }).initialize();
    // The database of the release before: every migration before this one, rows written with bare keys.
    await ds.runMigrations();
    for (let i = 0; i < FROM_IT.length; i++) await ds.undoLastMigration();
    for (const who of Object.keys(CALLERS)) await insert(`old-${who}`, who);
    await insert('not-a-key', 'alice', 'someone');
    expect((await ds.runMigrations()).map((m) => m.name)).toEqual(FROM_IT);
    app = await createAuthApp({ store: new TypeOrmTaskStore(ds) });
    const { port } = app.getHttpServer().address() as { port: number };
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await ds?.destroy();
  });

  it('the migration tags each key with its version; text that was no key is left as it was', async () => {
    for (const who of Object.keys(CALLERS)) expect(await keyOf(`old-${who}`)).toBe(`v1:${earlierKey(CALLERS[who])}`);
    expect(await keyOf('not-a-key')).toBe('someone');
  });

  it('each migrated task is read by its owner and, for anyone else, is a task that does not exist', async () => {
    for (const who of Object.keys(CALLERS)) await asEveryone(`old-${who}`, who);
  });

  it('one an older instance stores after the migration (rolling deploy: a bare key) is its owner’s alone', async () => {
    for (const who of Object.keys(CALLERS)) await insert(`late-${who}`, who);
    for (const who of Object.keys(CALLERS)) await asEveryone(`late-${who}`, who);
    // 2025-11-25 tasks/list: the owner's migrated and late tasks together, nobody else's.
    for (const who of Object.keys(CALLERS)) expect(await listed(who)).toEqual([`late-${who}`, `old-${who}`]);
  });

  it('reverted, the keys are bare again as an earlier release reads them; run again, tagged again', async () => {
    for (let i = 0; i < FROM_IT.length; i++) await ds.undoLastMigration();
    for (const who of Object.keys(CALLERS)) expect(await keyOf(`old-${who}`)).toBe(earlierKey(CALLERS[who]));
    expect(await keyOf('not-a-key')).toBe('someone');
    expect((await ds.runMigrations()).map((m) => m.name)).toEqual(FROM_IT);
    for (const who of Object.keys(CALLERS)) expect(await keyOf(`late-${who}`)).toBe(`v1:${earlierKey(CALLERS[who])}`);
    await asEveryone('old-tagged', 'tagged');
  });
});
