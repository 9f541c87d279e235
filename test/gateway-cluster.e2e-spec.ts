import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { connect, type McpTasksClient } from '@mcp-tasks/client';
import { createClusterApp, STATE_SECRET } from './fixtures/cluster-app.js';
import { startDemoProcess, textOf, type DemoProcess } from './support/demo-process.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';

const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const LEASE = 1_500;

/**
 * Two gateway instances on one PostgreSQL (store and bus) in front of one upstream (the demo): proxy A is the demo
 * itself with MCP_UPSTREAM_URL (a process, so it can be killed), proxy B an app in this process with the same
 * server name and upstream. A caller uses either.
 */
describe('gateway: two instances, one upstream', () => {
  let pg: TestPostgres;
  let upstream: DemoProcess;
  let a: DemoProcess;
  let b: INestApplication;
  let viaA: McpTasksClient;
  let viaB: McpTasksClient;
  let db: DataSource;
  const countdownLog = () => textOf(upstream.client, 'countdown_log');
  const leaseOf = async (id: string): Promise<string | null> =>
    (await db.query('SELECT lease_owner FROM mcp_tasks WHERE id = $1', [id]))[0]?.lease_owner ?? null;

  beforeAll(async () => {
    pg = await startPostgres();
    upstream = await startDemoProcess({ MCP_POLL_INTERVAL: '200' });
    a = await startDemoProcess({
      MCP_UPSTREAM_URL: upstream.url,
      MCP_STORE: 'postgres',
      MCP_BUS: 'postgres',
      DATABASE_URL: pg.url,
      MCP_LEASE: String(LEASE),
      MCP_STATE_SECRET: STATE_SECRET,
    });
    b = await createClusterApp(
      { type: 'postgres', url: pg.url },
      {
        server: { name: 'mcp-tasks-demo', version: '0.1.0' },
        lease: LEASE,
        pollInterval: 250,
        upstreams: [{ name: 'upstream', url: upstream.url }],
      },
    );
    viaA = await connect(a.url, { tasks: true });
    viaB = await connect(new URL(`http://127.0.0.1:${b.getHttpServer().address().port}/mcp`), { tasks: true });
    for (const client of [viaA, viaB])
      await until('upstream tools served', async () =>
        (await client.request('tools/list', {})).tools.some((t: { name: string }) => t.name === 'upstream_countdown'),
      );
    db = await new DataSource({ type: 'postgres', url: pg.url }).initialize();
  }, 180_000);
  afterAll(async () => {
    await db?.destroy();
    await viaA?.close().catch(() => undefined);
    await viaB?.close();
    await a?.stop();
    await b?.close();
    await upstream?.stop();
    await pg?.stop();
  });

  it('a question of a task mirrored on A is answered through B, and reaches the upstream', async () => {
    const created = await viaA.request(
      'tools/call',
      { name: 'upstream_confirm_delete', arguments: { filename: 'shared.txt' } },
      { capabilities: { ...TASKS, elicitation: {} } },
    );
    await until('asked, read on B', async () => (await viaB.getTask(created.taskId)).status === 'input_required');
    await viaB.updateTask(created.taskId, { confirm: { action: 'accept', content: { confirm: true } } });
    const done = await until('completed, read on A', async () => {
      const task = await viaA.getTask(created.taskId);
      return task.status === 'completed' ? task : undefined;
    });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Deleted shared.txt' }]);
  });

  it('a task mirrored on A, cancelled through B: cancelled upstream, its signal fired there', async () => {
    const run = `cluster-cancel-${randomUUID().slice(0, 8)}`;
    const created = await viaA.request('tools/call', {
      name: 'upstream_countdown',
      arguments: { seconds: 120, label: run },
    });
    await until('running upstream', async () => (await countdownLog()).includes(`${run} `));
    await viaB.cancelTask(created.taskId);
    expect((await viaA.getTask(created.taskId)).status).toBe('cancelled');
    await until('stopped upstream by its signal', async () =>
      /stopped by its signal \(cancelled\)/.test((await countdownLog()).split('\n').find((l) => l.startsWith(run))!),
    );
    const upstreamId = /\(task ([\w-]+)\)/.exec((await countdownLog()).split('\n').find((l) => l.startsWith(run))!)![1];
    expect((await upstream.client.getTask(upstreamId)).status).toBe('cancelled');
  });

  it('an instance shut down gracefully hands its mirrors over: another finishes them, not "interrupted"', async () => {
    // A third instance, C, in this process: the task is created through it, then C closes (app.close()).
    const c = await createClusterApp(
      { type: 'postgres', url: pg.url },
      {
        server: { name: 'mcp-tasks-demo', version: '0.1.0' },
        lease: LEASE,
        pollInterval: 250,
        upstreams: [{ name: 'upstream', url: upstream.url }],
      },
    );
    let open = true;
    try {
      const viaC = await connect(new URL(`http://127.0.0.1:${c.getHttpServer().address().port}/mcp`), { tasks: true });
      await until('upstream tools served on C', async () =>
        (await viaC.request('tools/list', {})).tools.some((t: { name: string }) => t.name === 'upstream_countdown'),
      );
      const created = await viaC.request('tools/call', { name: 'upstream_countdown', arguments: { seconds: 10 } });
      await viaC.close();
      const holderC = await leaseOf(created.taskId);
      expect(holderC).toEqual(expect.any(String));
      await c.close();
      open = false;
      // Still working, its lease ended at once by the shutdown: another instance takes it over on its next round.
      expect((await viaA.getTask(created.taskId)).status).toBe('working');
      await until('taken over by A or B', async () => {
        const holder = await leaseOf(created.taskId);
        return holder !== null && holder !== holderC;
      });
      const statuses = new Set<string>();
      const done = await until(
        'completed, followed by another instance',
        async () => {
          const task = await viaA.getTask(created.taskId);
          statuses.add(task.status);
          return task.status !== 'working' ? task : undefined;
        },
        60_000,
        100,
      );
      expect(done.status).toBe('completed');
      expect(done.result?.content).toEqual([{ type: 'text', text: 'Counted down 10 s.' }]);
      expect([...statuses]).toEqual(['working', 'completed']);
    } finally {
      if (open) await c.close();
    }
  }, 90_000);

  it('A killed mid-task: B takes the mirror over (not "interrupted") and the caller gets the result', async () => {
    const created = await viaA.request('tools/call', { name: 'upstream_countdown', arguments: { seconds: 8 } });
    await until('progress mirrored by A', async () => (await viaB.getTask(created.taskId)).statusMessage);
    const holderA = await leaseOf(created.taskId);
    expect(holderA).toEqual(expect.any(String));
    a.process.kill('SIGKILL');
    const statuses = new Set<string>();
    const done = await until(
      'completed, followed by B',
      async () => {
        const task = await viaB.getTask(created.taskId);
        statuses.add(task.status);
        return task.status !== 'working' ? task : undefined;
      },
      60_000,
      100,
    );
    expect(done.status).toBe('completed');
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Counted down 8 s.' }]);
    expect([...statuses]).toEqual(['working', 'completed']);
    const holderB = await leaseOf(created.taskId);
    expect(holderB).toEqual(expect.any(String));
    expect(holderB).not.toBe(holderA);
  }, 90_000);
});
