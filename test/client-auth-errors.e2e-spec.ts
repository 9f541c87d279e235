import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { connect, ForbiddenError, McpAuthError, UnauthorizedError, type McpTasksClient } from '@mcp-tasks/client';
import { createAuthApp } from './fixtures/auth-app.js';
import { hs256 } from './support/tokens.js';

const METADATA = 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp';
const expired = () => hs256({ sub: 'alice', scope: 'files:read', exp: Math.floor(Date.now() / 1000) - 60 });
const reader = () => hs256({ sub: 'alice', scope: 'files:read' });

/** A refusal, caught (the assertion fails when the promise resolves). */
async function refusal(promise: Promise<unknown>): Promise<McpAuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpAuthError);
  return error as McpAuthError;
}

/**
 * 401/403 answers reach the caller with the server's reason: `UnauthorizedError` / `ForbiddenError` carry the
 * challenge's `error`, `error_description`, `scope` and `resource_metadata`, on 2026-07-28 and on 2025-11-25.
 */
describe('client: the reason of a 401 or 403 (fixture app with auth)', () => {
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

  it.each(['never', 'only'] as const)(
    'legacy %s: an expired token fails connect with UnauthorizedError',
    async (legacy) => {
      const error = await refusal(connect(url, { tasks: true, legacy, token: expired() }));
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect(error).toMatchObject({
        name: 'UnauthorizedError',
        status: 401,
        error: 'invalid_token',
        description: expect.stringMatching(/expired/),
        scopes: [],
        resourceMetadata: METADATA,
        code: -32600,
      });
      expect(error.message).toContain(error.description);
    },
  );

  it('without a token: UnauthorizedError without an error code, saying a token is required', async () => {
    const error = await refusal(connect(url, { tasks: true }));
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, error: undefined, resourceMetadata: METADATA });
    expect(error.description).toMatch(/bearer token is required/);
  });

  it('2026-07-28: missing scopes are a ForbiddenError naming them, on every request path', async () => {
    const tasks = track(await connect(url, { tasks: true, token: reader() }));
    const plain = track(await connect(url, { token: reader() }));
    const paths = [
      () => tasks.callTool('write_file', {}), // ext-tasks' request path
      () => plain.callTool('write_file', {}), // the SDK's
      () => tasks.request('tools/call', { name: 'write_file', arguments: {} }), // a raw request
    ];
    for (const path of paths) {
      const error = await refusal(path());
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error).toMatchObject({
        name: 'ForbiddenError',
        status: 403,
        error: 'insufficient_scope',
        scopes: ['files:read', 'files:write'],
        description: 'this needs the scopes files:read files:write',
        resourceMetadata: METADATA,
        code: -32600,
        data: { requiredScopes: ['files:read', 'files:write'] },
      });
      expect(error.message).toBe('Forbidden: this needs the scopes files:read files:write');
    }
  });

  it('2025-11-25: missing scopes are a ForbiddenError too', async () => {
    const client = track(await connect(url, { legacy: 'only', token: reader() }));
    expect(client.protocolVersion).toBe('2025-11-25');
    const error = await refusal(client.callTool('write_file', {}));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, error: 'insufficient_scope', scopes: ['files:read', 'files:write'] });
  });

  it('a per-request token the server refuses (request, listenTasks) is an UnauthorizedError too', async () => {
    const client = track(await connect(url, { tasks: true, token: reader() }));
    const call = await client.callTool('job', { ms: 0 });
    if (call.kind !== 'task') throw new Error('expected a task');
    // A per-request token the server refuses: no provider to ask again, the refusal as it came.
    const get = await refusal(client.request('tasks/get', { taskId: call.task.taskId }, { token: expired() }));
    expect(get).toBeInstanceOf(UnauthorizedError);
    const listen = await refusal(client.listenTasks([call.task.taskId], () => undefined, { token: expired() }));
    expect(listen).toMatchObject({
      status: 401,
      error: 'invalid_token',
      description: expect.stringMatching(/expired/),
    });
  });
});
