import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sqlHarness, type SqlHarness } from './sql-harness.js';
import { T0, TTL, newTask } from '@mcp-tasks/nestjs/testing';

/**
 * Another process on the same SQLite file (a worker thread with its own connection stands in):
 * it takes the write lock, inserts a live task for alice, holds the lock, then commits. Our create,
 * started meanwhile, must wait for that commit and count the task, not fail with SQLITE_BUSY nor
 * decide on a snapshot from before the commit.
 */
const OTHER_WRITER = `
  const { workerData, parentPort } = require('node:worker_threads');
  const Database = require('better-sqlite3');
  const db = new Database(workerData.file);
  db.exec('BEGIN IMMEDIATE');
  db.prepare(\`INSERT INTO mcp_tasks (id, owner_key, tool, status, input_requests, input_responses, required_scopes,
    created_at, updated_at, expires_at) VALUES ('other', 'alice', 'demo', 'working', '{}', '{}', '[]', ?, ?, ?)\`)
    .run(workerData.t0, workerData.t0, workerData.t0 + workerData.ttl);
  parentPort.postMessage('locked');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs);
  db.exec('COMMIT');
  db.close();
`;

describe('TypeOrmTaskStore on SQLite, two processes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-sqlite-x-'));
  const file = join(dir, 'tasks.sqlite');
  let h: SqlHarness;
  beforeAll(async () => {
    h = await sqlHarness({ type: 'better-sqlite3', database: file, enableWAL: true }, false);
  });
  afterAll(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a create waits for the other writer and counts its task against the cap', async () => {
    const worker = new Worker(OTHER_WRITER, { eval: true, workerData: { file, t0: T0, ttl: TTL, holdMs: 300 } });
    const exited = new Promise((resolve, reject) => worker.once('exit', resolve).once('error', reject));
    await new Promise((resolve) => worker.once('message', resolve));
    const started = Date.now();
    const outcome = await h.store.create(newTask({ id: 'ours' }), { maxPerOwner: 1, maxTotal: Infinity });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(outcome).toBe('owner-limit');
    await exited;
    expect(await h.countLive('alice', T0)).toBe(1);
    expect((await h.store.get('other', T0))?.owner).toBe('alice');
  });
});
