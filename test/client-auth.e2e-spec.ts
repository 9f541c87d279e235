import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { connect, type McpTasksClient } from '@mcp-tasks/client';
import { createAuthApp } from './fixtures/auth-app.js';
import { hs256 } from './support/tokens.js';

/** `connect(url, { token })` against the fixture app with bearer-token auth. */
describe('client: bearer token (fixture app with auth)', () => {
  let app: INestApplication;
  let url: URL;
  const opened: McpTasksClient[] = [];
  const track = <T extends McpTasksClient>(c: T): T => (opened.push(c), c);
  beforeAll(async () => {
    app = await createAuthApp();
    url = new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);
  });
  afterAll(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await app?.close();
  });

  it('sends the token on connect, tools/call, tasks/get and the listen stream', async () => {
    const token = hs256({ sub: 'alice', scope: 'files:read' });
    // README: token
    const client = await connect(url, { tasks: true, token });
    const call = await client.callTool('read_file', { ms: 100 });
    if (call.kind === 'task') {
      const done = await client.awaitTask(call.task, { listen: true });
      expect(done.result?.content).toEqual([{ type: 'text', text: 'read by alice' }]);
    }
    await client.close();
    // /README
    expect(call.kind).toBe('task');
  });

  it('polls with the token too, and the task is the token owner’s', async () => {
    const client = track(await connect(url, { tasks: true, token: hs256({ sub: 'bob', scope: 'files:read' }) }));
    const call = await client.callTool('job', { ms: 100 });
    if (call.kind !== 'task') throw new Error('expected a task');
    expect((await client.awaitTask(call.task)).result?.content).toEqual([{ type: 'text', text: 'job done' }]);
    // Another subject cannot see bob's task: the server answers as if it did not exist.
    const carol = track(await connect(url, { tasks: true, token: hs256({ sub: 'carol', scope: 'files:read' }) }));
    await expect(carol.getTask(call.task.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('without a token the endpoint refuses the connection (401)', async () => {
    await expect(connect(url, { tasks: true })).rejects.toThrow();
  });
});
