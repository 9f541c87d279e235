import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { fileURLToPath } from 'node:url';
import { AppProcess } from './support/app-process.js';
import { call, getTask, rpc, TASKS } from './support/mcp-request.js';
import { PLATFORM_MATRIX } from './support/platforms.js';

const LIMIT = 4;
const SCRIPT = fileURLToPath(new URL('./fixtures/throttled-app.mjs', import.meta.url));

/** Requests go to the child's port: `rpc` takes anything whose `getHttpServer()` supertest can address. */
const remote = (port: number) => ({ getHttpServer: () => `http://127.0.0.1:${port}` }) as unknown as INestApplication;

// Runs the built package (dist) in a child process, as an installed app would: `npm test` builds first.
describe.each(PLATFORM_MATRIX)('@nestjs/throttler ThrottlerGuard app-wide (%s, fastPath %s)', (platform, fastPath) => {
  let proc: AppProcess;
  let app: INestApplication;
  let n = 0;
  const as = () => ({ caps: TASKS, headers: { 'x-client': `client-${++n}` } });
  beforeAll(async () => {
    proc = await AppProcess.start({
      script: SCRIPT,
      env: { MCP_ADAPTER: platform, MCP_FAST_PATH: fastPath ? '1' : '0', THROTTLE_LIMIT: String(LIMIT) },
    });
    app = remote(proc.port);
  }, 60_000);
  afterAll(() => proc.stop());

  it('each tools/call counts once; over the limit HTTP 429, Retry-After, a JSON-RPC error, no task', async () => {
    const o = as();
    const remaining: string[] = [];
    const tasks: string[] = [];
    for (let i = 0; i < LIMIT; i++) {
      const res = await call(app, 'job', { ms: 0 }, o);
      expect(res.body.result.resultType).toBe('task');
      tasks.push(res.body.result.taskId);
      remaining.push(String(res.headers['x-ratelimit-remaining']));
    }
    expect(remaining).toEqual(['3', '2', '1', '0']);
    const over = await call(app, 'job', { ms: 0 }, { ...o, id: 'over' });
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toEqual({ jsonrpc: '2.0', id: 'over', error: { code: -32600, message: expect.any(String) } });
    expect(over.body.result).toBeUndefined();
    // The caller's earlier tasks are still readable: tasks/get has a budget of its own (another handler).
    expect((await getTask(app, tasks[0], o)).body.result.taskId).toBe(tasks[0]);
  });

  it('every other MCP method counts once per request too', async () => {
    const o = as();
    for (let i = 0; i < LIMIT; i++) expect((await rpc(app, 'tools/list', {}, o)).status).toBe(200);
    const over = await rpc(app, 'server/discover', {}, { ...o, id: 'd' });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ id: 'd', error: { code: -32600 } });
  });
});
