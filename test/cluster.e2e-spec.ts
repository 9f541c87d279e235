import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource } from 'typeorm';
import { createClusterApp, STATE_SECRET } from './fixtures/cluster-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { listen } from './support/listen.js';
import { call, cancelTask, getTask, rpc, TASKS, updateTask, waitForTask } from './support/mcp-request.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { AppProcess } from './support/app-process.js';

const FULL = { ...TASKS, elicitation: {} };

describe('two instances on one PostgreSQL', () => {
  let pg: TestPostgres;
  let a: INestApplication;
  let b: INestApplication;
  beforeAll(async () => {
    pg = await startPostgres();
    // A long poll interval: anything faster than it came through the event bus, not polling.
    a = await createClusterApp({ type: 'postgres', url: pg.url }, { pollInterval: 3000, maxPerPrincipal: 20 });
    b = await createClusterApp({ type: 'postgres', url: pg.url }, { pollInterval: 3000, maxPerPrincipal: 20 });
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await pg?.stop();
  });

  it('a task created on A is read on B, identically', async () => {
    // Compared while nothing can change it (a long wait), so a slow machine cannot finish it between the reads.
    const long = (await call(a, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId;
    expect((await getTask(b, long)).body.result).toEqual((await getTask(a, long)).body.result);
    await cancelTask(a, long);
    const created = await call(a, 'wait', { ms: 200 }, { caps: TASKS });
    const id = created.body.result.taskId;
    const doneB = await waitForTask(b, id);
    expect(doneB.result.content[0].text).toBe('waited 200');
    expect((await getTask(a, id)).body.result).toEqual((await getTask(b, id)).body.result);
  });

  it('an elicitation raised on A, answered through B, resumes the tool on A (via the bus)', async () => {
    const id = (await call(a, 'ask', {}, { caps: FULL })).body.result.taskId;
    await waitForTask(b, id, (s) => s === 'input_required');
    const t0 = Date.now();
    await updateTask(b, id, { a: { action: 'accept', content: { ok: true } } });
    const next = await waitForTask(a, id, (s) => s === 'input_required' && true, 5000);
    await sleep(0);
    expect(Object.keys(next.inputRequests ?? {})).toEqual(['b']);
    expect(Date.now() - t0).toBeLessThan(2500);
    await updateTask(b, id, { b: { action: 'accept', content: { ok: false } } });
    const done = await waitForTask(b, id);
    expect(done.result.content[0].text).toBe('a=true again=true b=false');
  });

  it('tasks/cancel on B fires ctx.signal on A at once', async () => {
    const id = (await call(a, 'wait', { ms: 60_000, tag: 'x-cancel' }, { caps: TASKS })).body.result.taskId;
    await sleep(100);
    expect(observed.aborted.has(id)).toBe(false);
    await cancelTask(b, id);
    const t0 = Date.now();
    while (!observed.aborted.has(id) && Date.now() - t0 < 2000) await sleep(5);
    expect(observed.aborted.has(id)).toBe(true);
    expect((await getTask(a, id)).body.result.status).toBe('cancelled');
  });

  it('500 concurrent creates for one owner over A and B never exceed maxPerPrincipal (counted in the db)', async () => {
    const replies = await Promise.all(
      Array.from({ length: 500 }, (_, i) => call(i % 2 ? a : b, 'job', { ms: 60_000, tag: 'cap' }, { caps: TASKS })),
    );
    const created = replies.filter((r) => r.body.result?.resultType === 'task');
    const refused = replies.filter((r) => r.body.error?.code === -32600);
    expect(created.length + refused.length).toBe(500);
    const ds = new DataSource({ type: 'postgres', url: pg.url });
    await ds.initialize();
    try {
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM mcp_tasks WHERE tool = 'job' AND status IN ('working', 'input_required')`,
      );
      expect(n).toBeLessThanOrEqual(20);
      expect(created.length).toBe(n);
      expect(n).toBeGreaterThan(0);
    } finally {
      await ds.destroy();
    }
    await Promise.all(created.map((r) => cancelTask(a, r.body.result.taskId)));
  });

  it('listening on B delivers the status changes of a task running on A', async () => {
    const id = (await call(a, 'ask', {}, { caps: FULL })).body.result.taskId;
    await waitForTask(a, id, (st) => st === 'input_required');
    const s = await listen(b, { taskIds: [id] }, { caps: TASKS, id: 'cross' });
    try {
      await s.next((f) => f.method === 'notifications/subscriptions/acknowledged');
      await updateTask(a, id, { a: { action: 'accept', content: { ok: true } } });
      const asked = await s.next((f) => f.method === 'notifications/tasks' && !!f.params.inputRequests?.b, 2500);
      expect(asked.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('cross');
      await updateTask(a, id, { b: { action: 'accept', content: { ok: true } } });
      const done = await s.next((f) => f.method === 'notifications/tasks' && f.params.status === 'completed', 2500);
      expect(done.params.result.content[0].text).toBe('a=true again=true b=true');
    } finally {
      s.close();
    }
  });

  it('MRTR requestState issued by A is honoured by B (shared secret)', async () => {
    const r1 = await call(a, 'pair', {}, { caps: { elicitation: {} } });
    const yes = { action: 'accept', content: { ok: true } };
    const r2 = await rpc(
      b,
      'tools/call',
      { name: 'pair', arguments: {}, inputResponses: { x: yes, y: yes }, requestState: r1.body.result.requestState },
      { caps: { elicitation: {} } },
    );
    expect(r2.body.result.content[0].text).toBe('x=true y=true');
  });
});

describe('an instance that dies', () => {
  let pg: TestPostgres;
  let b: INestApplication;
  let demo: AppProcess | undefined;
  beforeAll(async () => {
    pg = await startPostgres();
    b = await createClusterApp({ type: 'postgres', url: pg.url }, { lease: 1000 });
  }, 60_000);
  afterAll(async () => {
    demo?.kill('SIGKILL');
    await b?.close();
    await pg?.stop();
  });

  it('killed with SIGKILL mid-task: another instance ends the task failed within the lease', async () => {
    demo = await AppProcess.start({
      script: 'dist/src/main.js',
      env: {
        MCP_STORE: 'postgres',
        DATABASE_URL: pg.url,
        MCP_BUS: 'postgres',
        MCP_LEASE: '1000',
        MCP_STATE_SECRET: STATE_SECRET,
      },
    });
    const res = await fetch(`http://127.0.0.1:${demo.port}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'slow_compute',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'slow_compute',
          arguments: { seconds: 60, label: 'doomed' },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': TASKS,
          },
        },
      }),
    });
    const { result } = (await res.json()) as { result: { taskId: string } };
    await sleep(300);
    demo.kill('SIGKILL');
    const killedAt = Date.now();
    // The demo's tasks belong to the demo server's owner key; read the row directly.
    const ds = new DataSource({ type: 'postgres', url: pg.url });
    await ds.initialize();
    try {
      let row: { status: string; error: { code: number; message: string } } | undefined;
      while (Date.now() - killedAt < 5000) {
        [row] = await ds.query('SELECT status, error FROM mcp_tasks WHERE id = $1', [result.taskId]);
        if (row?.status !== 'working') break;
        await sleep(50);
      }
      expect(row?.status).toBe('failed');
      expect(row?.error).toMatchObject({ code: -32603, message: expect.stringMatching(/interrupted/) });
      expect(Date.now() - killedAt).toBeLessThan(1000 + 1500);
      const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM mcp_tasks WHERE status = 'working'`);
      expect(n).toBe(0);
    } finally {
      await ds.destroy();
    }
  }, 30_000);
});

describe('SQLite on a file', () => {
  it('completed results survive a restart until their TTL', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'mcp-sqlite-')), 'tasks.sqlite');
    const first = await createClusterApp({ type: 'better-sqlite3', database: file }, { ttl: 2000 });
    const id = (await call(first, 'wait', { ms: 10 }, { caps: TASKS })).body.result.taskId;
    const done = await waitForTask(first, id);
    await first.close();
    const second = await createClusterApp({ type: 'better-sqlite3', database: file }, { ttl: 2000 });
    try {
      expect((await getTask(second, id)).body.result).toEqual(done);
      await sleep(2100 - (Date.now() - Date.parse(done.createdAt)));
      expect((await getTask(second, id)).body.error).toEqual({ code: -32602, message: 'Task not found' });
    } finally {
      await second.close();
    }
  });
});
