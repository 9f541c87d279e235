import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { createAuthApp } from './fixtures/auth-app.js';
import { call, cancelTask, getTask, TASKS } from './support/mcp-request.js';
import { initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { hs256 } from './support/tokens.js';
import { until } from './support/until.js';
import { codeOf, connectV1, type V1Connection } from './support/v1-client.js';

const ALICE = hs256({ sub: 'alice', azp: 'client-1', scope: 'files:read' });
const BOB = hs256({ sub: 'bob', azp: 'client-1', scope: 'files:read' });
const ALICE_OTHER_CLIENT = hs256({ sub: 'alice', azp: 'client-2', scope: 'files:read' });
const ALICE_NO_SCOPE = hs256({ sub: 'alice', azp: 'client-1', scope: '' });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const T = 60_000;

/** 2025-11-25 tasks under `auth`: the owner tuple binds them, across sessions and wires; nobody else sees them. */
describe('2025-11-25 tasks with authentication', () => {
  let app: INestApplication;
  let url: URL;
  const open: V1Connection[] = [];
  const v1 = async (token: string) => {
    const c = await connectV1(url, { token });
    open.push(c);
    await c.client.listTools();
    return c;
  };
  const createTask = async (c: V1Connection, name: string, args: Record<string, unknown> = {}) =>
    (
      await c.client.request(
        { method: 'tools/call', params: { name, arguments: args, task: {} } },
        CreateTaskResultSchema,
      )
    ).task.taskId;
  const tasks = (c: V1Connection) => c.client.experimental.tasks;

  beforeAll(async () => {
    app = await createAuthApp({ maxPerPrincipal: 4 });
    const { port } = app.getHttpServer().address() as { port: number };
    url = new URL(`http://127.0.0.1:${port}/mcp`);
  });
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await app?.close();
  });

  it(
    'an owner who is not the creator sees nothing: another subject, or the same through another client',
    async () => {
      const alice = await v1(ALICE);
      const id = await createTask(alice, 'read_file', { ms: 60_000 });
      expect((await tasks(alice).getTask(id)).status).toBe('working');
      for (const token of [BOB, ALICE_OTHER_CLIENT]) {
        const other = await v1(token);
        expect(
          codeOf(
            await tasks(other)
              .getTask(id)
              .catch((e) => e),
          ),
        ).toBe(-32602);
        expect(
          codeOf(
            await tasks(other)
              .getTaskResult(id, CallToolResultSchema)
              .catch((e) => e),
          ),
        ).toBe(-32602);
        expect(
          codeOf(
            await tasks(other)
              .cancelTask(id)
              .catch((e) => e),
          ),
        ).toBe(-32602);
        expect((await tasks(other).listTasks()).tasks.map((t) => t.taskId)).not.toContain(id);
        // Their 2026-07-28 requests too: exactly what an unknown task gets.
        expect((await getTask(app, id, { headers: bearer(token) })).body.error).toEqual({
          code: -32602,
          message: 'Task not found',
        });
      }
      expect((await tasks(alice).cancelTask(id)).status).toBe('cancelled');
    },
    T,
  );

  it(
    'a new session with the same token sees the tasks: with auth the owner tuple alone binds them',
    async () => {
      const first = await v1(ALICE);
      const id = await createTask(first, 'job', { ms: 0 });
      const second = await v1(ALICE);
      expect(second.transport.sessionId).not.toBe(first.transport.sessionId);
      await until('it completes', async () => (await tasks(second).getTask(id)).status === 'completed');
      expect((await tasks(second).listTasks()).tasks.map((t) => t.taskId)).toContain(id);
      const result = await tasks(second).getTaskResult(id, CallToolResultSchema);
      expect(result.content).toEqual([{ type: 'text', text: 'job done' }]);
    },
    T,
  );

  it(
    'the owner reads and cancels from either wire, each shaped as its own; nobody else from either',
    async () => {
      const alice = await v1(ALICE);
      const fromLegacy = await createTask(alice, 'read_file', { ms: 60_000 });
      const modern = await call(app, 'read_file', { ms: 60_000 }, { caps: TASKS, headers: bearer(ALICE) });
      const fromModern = modern.body.result.taskId as string;
      // 2026-07-28 reads the 2025 task: ttlMs and pollIntervalMs, no 2025 ttl key.
      const read = (await getTask(app, fromLegacy, { headers: bearer(ALICE) })).body.result;
      expect(read).toMatchObject({ taskId: fromLegacy, status: 'working', ttlMs: 3_600_000, resultType: 'complete' });
      expect(read).not.toHaveProperty('ttl');
      // 2025-11-25 reads the 2026 task: ttl and pollInterval, no 2026 keys.
      const seen = await tasks(alice).getTask(fromModern);
      expect(seen).toMatchObject({ taskId: fromModern, status: 'working', ttl: 3_600_000 });
      expect(seen).not.toHaveProperty('ttlMs');
      expect((await tasks(alice).listTasks()).tasks.map((t) => t.taskId)).toEqual(
        expect.arrayContaining([fromLegacy, fromModern]),
      );
      const bob = await v1(BOB);
      for (const id of [fromLegacy, fromModern]) {
        expect(
          codeOf(
            await tasks(bob)
              .getTask(id)
              .catch((e) => e),
          ),
        ).toBe(-32602);
        expect((await getTask(app, id, { headers: bearer(BOB) })).body.error.code).toBe(-32602);
      }
      expect(await tasks(alice).cancelTask(fromModern)).toMatchObject({ status: 'cancelled' });
      expect((await cancelTask(app, fromLegacy, { headers: bearer(ALICE) })).body.result).toEqual({
        resultType: 'complete',
        _meta: expect.anything(),
      });
      expect((await tasks(alice).getTask(fromLegacy)).status).toBe('cancelled');
    },
    T,
  );

  it(
    "one owner's 2025-11-25 and 2026-07-28 tasks share maxPerPrincipal",
    async () => {
      const capped = await createAuthApp({ maxPerPrincipal: 2, shutdownGrace: 100 });
      try {
        const { port } = capped.getHttpServer().address() as { port: number };
        const u = new URL(`http://127.0.0.1:${port}/mcp`);
        const c = await connectV1(u, { token: ALICE });
        open.push(c);
        const job = (tool: string) =>
          c.client
            .request(
              { method: 'tools/call', params: { name: tool, arguments: { ms: 60_000 }, task: {} } },
              CreateTaskResultSchema,
            )
            .catch((e: unknown) => e);
        expect(
          (await call(capped, 'job', { ms: 60_000 }, { caps: TASKS, headers: bearer(ALICE) })).body.result.taskId,
        ).toEqual(expect.any(String));
        expect(await job('job')).toMatchObject({ task: { status: 'working' } });
        expect(await job('read_file')).toMatchObject({
          code: -32600,
          message: expect.stringContaining('Too many live tasks'),
        });
        const modern = await call(capped, 'job', { ms: 60_000 }, { caps: TASKS, headers: bearer(ALICE) });
        expect(modern.body.error.code).toBe(-32600);
      } finally {
        await capped.close();
      }
    },
    T,
  );

  it(
    "maxTasks counts both wires' tasks of every owner",
    async () => {
      const capped = await createAuthApp({ maxTasks: 2, shutdownGrace: 100 });
      try {
        const { port } = capped.getHttpServer().address() as { port: number };
        const u = new URL(`http://127.0.0.1:${port}/mcp`);
        const legacyJob = (token: string) =>
          post(
            u,
            request('tools/call', { name: 'job', arguments: { ms: 60_000 }, task: {} }),
            legacyHeaders(undefined, bearer(token)),
          );
        const modern = await call(capped, 'job', { ms: 60_000 }, { caps: TASKS, headers: bearer(BOB) });
        expect(modern.body.result.taskId).toEqual(expect.any(String));
        expect((await legacyJob(ALICE)).body.result.task.status).toBe('working');
        expect((await legacyJob(ALICE)).body.error).toMatchObject({
          code: -32600,
          message: expect.stringContaining('the server has reached the limit'),
        });
        const again = await call(capped, 'job', { ms: 60_000 }, { caps: TASKS, headers: bearer(BOB) });
        expect(again.body.error.code).toBe(-32600);
      } finally {
        await capped.close();
      }
    },
    T,
  );

  it('a missing scope is 403 insufficient_scope before any task exists', async () => {
    const res = await post(
      url,
      request('tools/call', { name: 'read_file', arguments: { ms: 0 }, task: {} }),
      legacyHeaders(undefined, bearer(ALICE_NO_SCOPE)),
    );
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
    const listed = await post(url, request('tasks/list', {}), legacyHeaders(undefined, bearer(ALICE_NO_SCOPE)));
    expect(listed.body.result.tasks.filter((t: { status: string }) => t.status === 'working')).toHaveLength(0);
  });

  it('scopes are checked before the arguments here too: nothing of the schema is learnt without them', async () => {
    const reader = legacyHeaders(undefined, bearer(ALICE));
    for (const task of [undefined, {}]) {
      for (const args of [{ bytes: 'many' }, {}, { bytes: 0 }]) {
        const params = { name: 'write_sized', arguments: args, ...(task ? { task } : {}) };
        const res = await post(url, request('tools/call', params, 'ws'), reader);
        expect(res.status).toBe(403);
        expect(res.headers['www-authenticate']).toMatch(/error="insufficient_scope", scope="files:read files:write"/);
        expect(res.body).toMatchObject({ id: 'ws', error: expect.any(Object) });
        expect(JSON.stringify(res.body)).not.toMatch(/bytes/);
      }
    }
    const writer = legacyHeaders(
      undefined,
      bearer(hs256({ sub: 'alice', azp: 'client-1', scope: 'files:read files:write' })),
    );
    const invalid = await post(
      url,
      request('tools/call', { name: 'write_sized', arguments: { bytes: 'many' }, task: {} }),
      writer,
    );
    expect(invalid.body.result).toEqual({
      content: [{ type: 'text', text: expect.stringMatching(/bytes/) }],
      isError: true,
    });
    const ok = await post(url, request('tools/call', { name: 'write_sized', arguments: { bytes: 3 } }), writer);
    expect(ok.body.result.content[0].text).toBe('wrote 3');
  });

  it(
    "someone else's answer to a question is taken and dropped: the task still waits for its owner",
    async () => {
      // initialize needs a token too.
      expect((await initialize(url, { elicitation: {} })).res.status).toBe(401);
      const s = (
        await post(
          url,
          request('initialize', {
            protocolVersion: '2025-11-25',
            capabilities: { elicitation: {} },
            clientInfo: { name: 'a', version: '1' },
          }),
          legacyHeaders(undefined, { ...bearer(ALICE), 'mcp-protocol-version': null }),
        )
      ).headers['mcp-session-id'] as string;
      const h = legacyHeaders(s, bearer(ALICE));
      const id = (await post(url, request('tools/call', { name: 'ask_user', arguments: {}, task: {} }), h)).body.result
        .task.taskId as string;
      await until(
        'it asks',
        async () => (await post(url, request('tasks/get', { taskId: id }), h)).body.result.status === 'input_required',
      );
      const question = `mcp-tasks/in:${id}:${Buffer.from('ok').toString('base64url')}`;
      const answer = { jsonrpc: '2.0', id: question, result: { action: 'accept', content: { ok: true } } };
      // Bob, with no session and with alice's session id: the first is dropped, the second is not his session.
      expect((await post(url, answer, legacyHeaders(undefined, bearer(BOB)))).status).toBe(202);
      expect((await post(url, answer, legacyHeaders(s, bearer(BOB)))).status).toBe(404);
      expect((await post(url, request('tasks/get', { taskId: id }), h)).body.result.status).toBe('input_required');
      expect((await post(url, answer, h)).status).toBe(202);
      await until(
        'it completes',
        async () => (await post(url, request('tasks/get', { taskId: id }), h)).body.result.status === 'completed',
      );
    },
    T,
  );
});
