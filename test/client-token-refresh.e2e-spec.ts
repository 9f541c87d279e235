import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect, UnauthorizedError, type McpTasksClient, type TokenProvider } from '@mcp-tasks/client';
import { createAuthApp } from './fixtures/auth-app.js';
import { hs256 } from './support/tokens.js';

/** A token that expires 2 to 3 s from now (`exp` counts whole seconds). */
const shortLived = () => hs256({ sub: 'alice', scope: 'files:read', exp: Math.floor(Date.now() / 1000) + 3 });
/** The `job` tool runs this long: longer than two token lifetimes. */
const TASK_MS = 8_000;

/** A provider that keeps its token until the server refuses it, as one backed by a refresh token would. */
function refreshingOn401(): { provider: TokenProvider; refusals: string[] } {
  const refusals: string[] = [];
  let token = shortLived();
  const provider: TokenProvider = ({ rejected }) => {
    if (rejected) {
      refusals.push(rejected.description);
      token = shortLived();
    }
    return token;
  };
  return { provider, refusals };
}

/**
 * `token` as a provider: asked before each request and again after a 401, so a task is followed across token
 * expiries (tokens live 2-3 s here, the task 8 s). With a static token the same wait fails with the reason.
 */
describe('client: a token provider follows a task across token refreshes (fixture app with auth)', () => {
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

  it('a provider that mints a token per request: awaitTask by polling and by listening complete', async () => {
    let minted = 0;
    const token = () => (minted++, shortLived());
    const follow = async (listen: boolean) => {
      const client = track(await connect(url, { tasks: true, token }));
      const call = await client.callTool('job', { ms: TASK_MS });
      if (call.kind !== 'task') throw new Error('expected a task');
      return client.awaitTask(call.task, { listen });
    };
    const [polled, listened] = await Promise.all([follow(false), follow(true)]);
    for (const done of [polled, listened]) {
      expect(done.status).toBe('completed');
      expect(done.result?.content).toEqual([{ type: 'text', text: 'job done' }]);
    }
    expect(minted).toBeGreaterThan(10);
  }, 60_000);

  it('a provider asked again after a 401: the request is sent again with the fresh token (runTool)', async () => {
    let logins = 0;
    const login = async () => (logins++, shortLived());
    // README: token provider
    let token = await login();
    const client = await connect(url, {
      tasks: true,
      // Asked before each request; `rejected` is the 401 that refused the last token (e.g. it expired).
      token: async ({ rejected }) => (rejected ? (token = await login()) : token),
    });
    const result = await client.runTool('job', { ms: 8000 });
    expect(result.content).toEqual([{ type: 'text', text: 'job done' }]);
    // /README
    track(client);
    // The first token, and one for each expiry during the task.
    expect(logins).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('a static token: the wait fails with UnauthorizedError saying the token expired; the task goes on', async () => {
    const client = track(await connect(url, { tasks: true, token: shortLived() }));
    const call = await client.callTool('job', { ms: TASK_MS });
    if (call.kind !== 'task') throw new Error('expected a task');
    const error = await client.awaitTask(call.task).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, error: 'invalid_token', description: expect.stringMatching(/expired/) });
    // The server never stopped the task: a fresh token sees it end.
    const again = track(await connect(url, { tasks: true, token: shortLived }));
    expect((await again.awaitTask(call.task)).status).toBe('completed');
  }, 60_000);

  it('2025-11-25 (legacy only): the provider refreshes an expired token; a static one is refused', async () => {
    const { provider, refusals } = refreshingOn401();
    const renewing = track(await connect(url, { legacy: 'only', token: provider }));
    const fixed = track(await connect(url, { legacy: 'only', token: shortLived() }));
    expect(renewing.protocolVersion).toBe('2025-11-25');
    await sleep(3_500);
    const call = await renewing.callTool('read_file', {});
    expect(call).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'read by alice' }] } });
    expect(refusals.length).toBeGreaterThanOrEqual(1);
    for (const reason of refusals) expect(reason).toMatch(/expired/);
    await expect(fixed.callTool('read_file', {})).rejects.toBeInstanceOf(UnauthorizedError);
  }, 30_000);

  it('a provider that answers the refused token again is not retried: the 401 stands', async () => {
    const stale = hs256({ sub: 'alice', exp: Math.floor(Date.now() / 1000) - 60 });
    const asked: Array<string | undefined> = [];
    const token: TokenProvider = ({ rejected }) => (asked.push(rejected?.error), stale);
    await expect(connect(url, { tasks: true, token })).rejects.toBeInstanceOf(UnauthorizedError);
    // Once for the request, once after its 401; the same token is not sent twice.
    expect(asked).toEqual([undefined, 'invalid_token']);
  });

  it('a provider that throws or answers no token fails the request with what it did', async () => {
    const broken = new Error('the identity provider is down');
    await expect(connect(url, { tasks: true, token: () => Promise.reject(broken) })).rejects.toThrow(broken.message);
    await expect(connect(url, { tasks: true, token: () => '' })).rejects.toThrow(
      'connect: the token provider gave "" instead of a token (a non-empty string)',
    );
    await expect(connect(url, { tasks: true, token: 42 as never })).rejects.toThrow(
      'connect: token must be a string or a function that returns one, not 42',
    );
  });
});
