import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import {
  CreateTaskResultV1Schema,
  GetTaskResultV1Schema,
  ListTasksResultV1Schema,
  TaskStatusNotificationV1Schema,
} from '@modelcontextprotocol/ext-tasks/core/v1';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { PLATFORMS } from './support/platforms.js';
import { exchange, initialize, legacyHeaders, post, request, type LegacyExchange } from './support/legacy-wire.js';
import { until } from './support/until.js';

const RELATED = 'io.modelcontextprotocol/related-task';
const YES = { action: 'accept', content: { ok: true } };
const NOT_A_REQUEST = JSON.stringify({
  jsonrpc: '2.0',
  id: null,
  error: { code: -32600, message: 'Invalid Request: the body is not a JSON-RPC request object' },
});
const T = 60_000;

const urlOf = (app: INestApplication) => {
  const { port } = app.getHttpServer().address() as { port: number };
  return new URL(`http://127.0.0.1:${port}/mcp`);
};
const isInput = (f: Record<string, any>) => typeof f.id === 'string' && f.id.startsWith('mcp-tasks/in:');

/** The 2025-11-25 wire byte by byte (raw HTTP), on the fixture app, on each platform. */
describe.each(PLATFORMS)('2025-11-25 wire (%s)', (platform) => {
  let app: INestApplication;
  let url: URL;
  let session: string;
  /** `s`: the session (`null`: none). */
  const post1 = (body: unknown, s: string | null = session, extra: Record<string, string | null> = {}) =>
    post(url, body, legacyHeaders(s ?? undefined, extra));
  const create = async (name: string, args: Record<string, unknown> = {}, s: string | null = session) => {
    const res = await post1(request('tools/call', { name, arguments: args, task: {} }), s);
    if (!res.body?.result?.task) throw new Error(`no task: ${JSON.stringify(res.body)}`);
    return res.body.result.task.taskId as string;
  };
  const get = async (taskId: string, s: string | null = session) =>
    (await post1(request('tasks/get', { taskId }), s)).body;
  const result = (taskId: string, id: string | number = `r-${taskId}`, s = session) =>
    exchange(url, { body: request('tasks/result', { taskId }, id), headers: legacyHeaders(s) });
  const answer = (id: string, payload: Record<string, unknown>, s = session) =>
    post1({ jsonrpc: '2.0', id, ...payload }, s);
  const statusOf = async (taskId: string) => (await get(taskId)).result?.status as string;

  beforeAll(async () => {
    // pollInterval 1000: a GET stream waits 2 s before taking a task's questions, so tasks/result reliably goes first.
    app = await createFixtureApp({ pollInterval: 1000 }, [], platform);
    url = urlOf(app);
    session = (await initialize(url, { elicitation: {}, sampling: {}, roots: {} })).session;
  });
  afterAll(async () => app?.close());

  describe('shapes', () => {
    it('CreateTaskResult is exactly { task } and the task has exactly the 2025-11-25 fields', async () => {
      const res = await post1(request('tools/call', { name: 'wait', arguments: { ms: 300 }, task: { ttl: 60_000 } }));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body.result)).toEqual(['task']);
      expect(Object.keys(res.body.result.task).sort()).toEqual(
        ['createdAt', 'lastUpdatedAt', 'pollInterval', 'status', 'taskId', 'ttl'].sort(),
      );
      expect(CreateTaskResultV1Schema.safeParse(res.body.result).success).toBe(true);
      const got = await get(res.body.result.task.taskId);
      expect(got.result).not.toHaveProperty('_meta');
      expect(got.result).not.toHaveProperty('resultType');
      expect(GetTaskResultV1Schema.safeParse(got.result).success).toBe(true);
      const list = (await post1(request('tasks/list', {}))).body.result;
      expect(ListTasksResultV1Schema.safeParse(list).success).toBe(true);
    });

    it('tasks/result of a task already ended is plain JSON with related-task _meta', async () => {
      const id = await create('wait', { ms: 0 });
      await until('it completes', async () => (await statusOf(id)) === 'completed');
      const x = await result(id);
      expect(x.headers['content-type']).toMatch(/^application\/json/);
      expect((await x.body()).result).toEqual({
        content: [{ type: 'text', text: 'waited 0' }],
        _meta: { [RELATED]: { taskId: id } },
      });
    });

    it('a server whose ttl is null: the task says ttl: null (the key is there)', async () => {
      const noTtl = await createFixtureApp({ ttl: null, pollInterval: 50 }, [], platform);
      try {
        const u = urlOf(noTtl);
        const res = await post(u, request('tools/call', { name: 'wait', arguments: { ms: 0 }, task: {} }));
        expect(res.body.result.task).toHaveProperty('ttl', null);
        const asked = await post(u, request('tools/call', { name: 'wait', arguments: { ms: 0 }, task: { ttl: 1000 } }));
        expect(asked.body.result.task.ttl).toBe(1000);
        // The ttl the client asked for holds even on a server without one: the task expires.
        const gone = async () => (await post(u, request('tasks/get', { taskId: asked.body.result.task.taskId }))).body;
        await until('the task expires', async () => (await gone()).error?.message === 'Task not found');
      } finally {
        await noTtl.close();
      }
    });
  });

  describe('input on the tasks/result stream', () => {
    it(
      'status notification, the request (tied to the task), a 202 for the answer, more input, then the result',
      async () => {
        const id = await create('ask');
        await until('it asks', async () => (await statusOf(id)) === 'input_required');
        const stream = await result(id, 'res-1');
        expect(stream.status).toBe(200);
        expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
        const status = await stream.next((f) => f.method === 'notifications/tasks/status');
        expect(status.params).toMatchObject({ taskId: id, status: 'input_required' });
        expect(status.params).not.toHaveProperty('_meta');
        expect(TaskStatusNotificationV1Schema.safeParse(status).success).toBe(true);
        const first = await stream.next(isInput);
        expect(first).toMatchObject({
          method: 'elicitation/create',
          params: { mode: 'form', message: 'First?', _meta: { [RELATED]: { taskId: id } } },
        });
        expect((await answer(first.id, { result: YES })).status).toBe(202);
        const second = await stream.next((f) => isInput(f) && f.id !== first.id);
        expect(second.params.message).toBe('Second?');
        expect((await answer(second.id, { result: { action: 'decline' } })).status).toBe(202);
        const final = await stream.next((f) => f.id === 'res-1');
        expect(final.result).toMatchObject({
          content: [{ type: 'text', text: 'a=true again=true b=undefined' }],
          _meta: { [RELATED]: { taskId: id } },
        });
        await stream.ended;
      },
      T,
    );

    it(
      'the same answer twice: both taken (202), the tool sees one',
      async () => {
        const id = await create('ask');
        const stream = await result(id);
        const first = await stream.next(isInput);
        expect((await answer(first.id, { result: YES })).status).toBe(202);
        expect((await answer(first.id, { result: { action: 'decline' } })).status).toBe(202);
        const second = await stream.next((f) => isInput(f) && f.id !== first.id);
        await answer(second.id, { result: YES });
        const final = await stream.next((f) => 'result' in f || 'error' in f);
        expect(final.result.content[0].text).toBe('a=true again=true b=true');
      },
      T,
    );

    it(
      'an answer of the wrong shape is 400 -32602, and the question fails (the tool did not catch: -32603)',
      async () => {
        const id = await create('ask');
        const stream = await result(id, 'res-bad');
        const first = await stream.next(isInput);
        const res = await answer(first.id, { result: { action: 'maybe' } });
        expect(res.status).toBe(400);
        const invalid = "The client's answer to elicitation/create is not a valid result";
        expect(res.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32602, message: invalid } });
        const final = await stream.next((f) => f.id === 'res-bad');
        expect(final.error).toEqual({
          code: -32603,
          message: `The client could not answer elicitation/create (-32602: ${invalid})`,
        });
        expect((await get(id)).result).toMatchObject({ status: 'failed' });
      },
      T,
    );

    it(
      "a client's error answer fails the question: -32603 naming the client's error",
      async () => {
        const id = await create('sample');
        const stream = await result(id, 'res-err');
        const asked = await stream.next(isInput);
        expect(asked).toMatchObject({ method: 'sampling/createMessage', params: { maxTokens: 5 } });
        const res = await answer(asked.id, { error: { code: -1, message: 'User rejected sampling' } });
        expect(res.status).toBe(202);
        const final = await stream.next((f) => f.id === 'res-err');
        expect(final.error.code).toBe(-32603);
        expect(final.error.message).toContain('-1: User rejected sampling');
      },
      T,
    );

    it(
      'sampling and roots inside a task: real requests, their answers reach the tool',
      async () => {
        const sampled = await create('sample');
        const s = await result(sampled);
        const q = await s.next(isInput);
        await answer(q.id, { result: { role: 'assistant', content: { type: 'text', text: '4' }, model: 'm' } });
        expect((await s.next((f) => 'result' in f)).result.content[0].text).toBe('model: 4');
        const rooted = await create('roots');
        const r = await result(rooted);
        const rq = await r.next(isInput);
        expect(rq).toMatchObject({ method: 'roots/list', params: { _meta: { [RELATED]: { taskId: rooted } } } });
        await answer(rq.id, { result: { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] } });
        expect((await r.next((f) => 'result' in f)).result.content[0].text).toBe('roots: file:///a,file:///b');
      },
      T,
    );

    it(
      'posted responses that answer nothing of ours keep their bytes: 400 -32600; unknown tasks are 202',
      async () => {
        for (const id of [7, 'x', 'mcp-tasks/in:', 'mcp-tasks/in:task-without-key']) {
          const res = await exchange(url, {
            body: { jsonrpc: '2.0', id, result: {} },
            headers: legacyHeaders(session),
          });
          expect(res.status).toBe(400);
          expect(JSON.stringify(await res.body())).toBe(NOT_A_REQUEST);
        }
        const stray = await answer(`mcp-tasks/in:no-such-task:${Buffer.from('a').toString('base64url')}`, {
          result: YES,
        });
        expect(stray.status).toBe(202);
      },
      T,
    );

    it(
      'notifications/cancelled ends that tasks/result without an answer; the task goes on',
      async () => {
        const id = await create('wait', { ms: 60_000 });
        const stream = await result(id, 'to-cancel');
        await stream.next((f) => f.method === 'notifications/tasks/status');
        const note = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'to-cancel' } };
        expect((await post1(note)).status).toBe(202);
        await stream.ended;
        expect(stream.frames.some((f) => f.id === 'to-cancel')).toBe(false);
        expect(await statusOf(id)).toBe('working');
        await post1(request('tasks/cancel', { taskId: id }));
      },
      T,
    );
  });

  describe("the session's GET stream", () => {
    const openGet = (s: string | null = session, accept = 'text/event-stream') =>
      exchange(url, { method: 'GET', headers: { accept, ...(s ? { 'mcp-session-id': s } : {}) } });

    it('405 without a session, 404 with a foreign one, 406 without SSE, 409 for a second; DELETE is 405', async () => {
      const own = (await initialize(url, { elicitation: {} })).session;
      expect((await openGet(null)).status).toBe(405);
      const foreign = await openGet(`${own}x`);
      expect(foreign.status).toBe(404);
      expect(await foreign.body()).toMatchObject({ error: { code: -32001 } });
      expect((await openGet(own, 'application/json')).status).toBe(406);
      const first = await openGet(own);
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toMatch(/^text\/event-stream/);
      const second = await openGet(own);
      expect(second.status).toBe(409);
      first.close();
      const del = await exchange(url, { method: 'DELETE', headers: { 'mcp-session-id': own } });
      expect(del.status).toBe(405);
    });

    it(
      'with no tasks/result open, the questions come on the GET stream (after the grace), with status notes',
      async () => {
        const own = (await initialize(url, { elicitation: {} })).session;
        const stream = await openGet(own);
        try {
          const id = await create('ask', {}, own);
          const status = await stream.next((f) => f.method === 'notifications/tasks/status' && f.params.taskId === id);
          expect(status.params.status).toBe('input_required');
          const asked = await stream.next(isInput);
          expect(asked.params._meta[RELATED]).toEqual({ taskId: id });
          await answer(asked.id, { result: YES }, own);
          const next = await stream.next((f) => isInput(f) && f.id !== asked.id);
          await answer(next.id, { result: YES }, own);
          await stream.next((f) => f.method === 'notifications/tasks/status' && f.params.status === 'completed');
          const final = await result(id, 'after', own);
          expect((await final.body()).result.content[0].text).toBe('a=true again=true b=true');
        } finally {
          stream.close();
        }
      },
      T,
    );

    it(
      'a tasks/result open when the task asks takes its questions: they never reach the GET stream',
      async () => {
        const own = (await initialize(url, { elicitation: {} })).session;
        const stream = await openGet(own);
        try {
          const id = await create('ask', {}, own);
          const res = await result(id, 'first', own);
          const asked = await res.next(isInput);
          await answer(asked.id, { result: YES }, own);
          const next = await res.next((f) => isInput(f) && f.id !== asked.id);
          await answer(next.id, { result: YES }, own);
          await res.next((f) => f.id === 'first');
          expect(stream.frames.filter(isInput)).toEqual([]);
        } finally {
          stream.close();
        }
      },
      T,
    );
  });

  describe('versions, sessions, switches', () => {
    it('a 2025-06-18 session: no tasks capability, no execution, params.task ignored, tasks/* unknown', async () => {
      const { session: old, result: init } = await initialize(url, {}, '2025-06-18');
      expect(init.protocolVersion).toBe('2025-06-18');
      expect(init.capabilities).not.toHaveProperty('tasks');
      const h = { 'mcp-protocol-version': '2025-06-18' };
      const tools = (await post1(request('tools/list'), old, h)).body.result.tools;
      expect(tools.find((t: { name: string }) => t.name === 'wait')).not.toHaveProperty('execution');
      const ran = await post1(request('tools/call', { name: 'wait', arguments: { ms: 1 }, task: {} }), old, h);
      expect(ran.body.result).toEqual({ content: [{ type: 'text', text: 'waited 1' }] });
      expect((await post1(request('tasks/get', { taskId: 'x' }), old, h)).body.error.code).toBe(-32601);
      const job = await post1(request('tools/call', { name: 'job', arguments: { ms: 1 } }), old, h);
      expect(job.body.error).toMatchObject({ code: -32600, message: expect.stringContaining('runs only as a task') });
    });

    it('an unsupported MCP-Protocol-Version is 400', async () => {
      const res = await post1(request('tools/call', { name: 'echo', arguments: {} }), session, {
        'mcp-protocol-version': '2024-01-01',
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32000, message: expect.stringContaining('2024-01-01') });
    });

    it('input asked in a synchronous 2025 call of a session that cannot answer it is refused (-32600)', async () => {
      const bare = (await initialize(url, {})).session;
      const res = await post1(request('tools/call', { name: 'ask', arguments: {} }), bare);
      // No MRTR on this wire; a client that declared the capability is asked on the call's stream instead.
      expect(res.body.error).toMatchObject({
        code: -32600,
        message: expect.stringContaining('declare it in initialize'),
      });
    });

    it('MRTR fields are not of this wire: requestState and inputResponses are ignored', async () => {
      const params = { name: 'echo', arguments: { text: 'x' }, requestState: 'forged.state', inputResponses: {} };
      const res = await post1(request('tools/call', params));
      expect(res.body.result).toEqual({ content: [{ type: 'text', text: 'echo:x' }] });
    });

    it('a synchronous call with a progressToken streams notifications/progress, then the result', async () => {
      const res = await post1(
        request('tools/call', { name: 'progress', arguments: {}, _meta: { progressToken: 'p' } }, 'pr'),
      );
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(res.frames.map((f) => f.method ?? f.id)).toEqual([
        'notifications/progress',
        'notifications/progress',
        'pr',
      ]);
      expect(res.frames[0].params).toEqual({ progressToken: 'p', progress: 1, total: 2, message: 'half' });
    });

    it('a per-call policy is advertised optional and decides each call; task: true is optional', async () => {
      const tools = (await post1(request('tools/list'))).body.result.tools as Array<Record<string, any>>;
      const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport ?? 'none']));
      expect(support).toMatchObject({ chooser: 'optional', flexible: 'optional', job: 'required', echo: 'none' });
      // Without params.task the function decides: 'sync' runs in the request, 'required' is -32601.
      const small = await post1(request('tools/call', { name: 'chooser', arguments: { ms: 1 } }));
      expect(small.body.result).toEqual({ content: [{ type: 'text', text: 'chose 1' }] });
      const big = await post1(request('tools/call', { name: 'chooser', arguments: { ms: 100 } }));
      expect(big.body.error).toMatchObject({ code: -32601, message: expect.stringContaining('task augmentation') });
      // With params.task it is a task, whatever the function would choose.
      const asked = await create('chooser', { ms: 1 });
      expect((await post1(request('tasks/result', { taskId: asked }))).body.result.content[0].text).toBe('chose 1');
      const flexible = await create('flexible', { ms: 1 });
      const done = await post1(request('tasks/result', { taskId: flexible }));
      expect(done.body.result.content[0].text).toBe('flexible 1 task');
      const inline = await post1(request('tools/call', { name: 'flexible', arguments: { ms: 1 } }));
      expect(inline.body.result.content[0].text).toBe('flexible 1 sync');
    });

    it('concurrent requests of one session are served side by side', async () => {
      const own = (await initialize(url, { elicitation: {} })).session;
      const tasked = Array.from({ length: 6 }, () =>
        post1(request('tools/call', { name: 'wait', arguments: { ms: 200 }, task: {} }), own),
      );
      const inline = Array.from({ length: 3 }, () =>
        post1(request('tools/call', { name: 'wait', arguments: { ms: 100 } }), own),
      );
      const [created, ran, listed] = await Promise.all([
        Promise.all(tasked),
        Promise.all(inline),
        post1(request('tools/list'), own),
      ]);
      const ids = created.map((r) => r.body.result.task.taskId as string);
      expect(new Set(ids).size).toBe(6);
      for (const r of ran) expect(r.body.result.content[0].text).toBe('waited 100');
      expect(listed.body.result.tools.length).toBeGreaterThan(0);
      const results = await Promise.all(ids.map((taskId) => post1(request('tasks/result', { taskId }), own)));
      for (const [i, r] of results.entries()) {
        expect(r.body.result).toMatchObject({
          content: [{ text: 'waited 200' }],
          _meta: { [RELATED]: { taskId: ids[i] } },
        });
      }
      const mine = (await post1(request('tasks/list', {}), own)).body.result.tasks.map((t: any) => t.taskId);
      expect(mine).toEqual(expect.arrayContaining(ids));
    });

    it('without a session: tasks work, and tasks/list shows no session-bound task', async () => {
      const bound = await create('wait', { ms: 0 });
      const id = await create('wait', { ms: 0 }, null);
      expect((await get(id, null)).result.taskId).toBe(id);
      const listed = (await post1(request('tasks/list', {}), null)).body.result.tasks.map((t: any) => t.taskId);
      expect(listed).toContain(id);
      expect(listed).not.toContain(bound);
      expect((await get(bound, null)).error).toEqual({ code: -32602, message: 'Task not found' });
      // The session sees both: its own, and the one bound to no session.
      const mine = (await post1(request('tasks/list', {}))).body.result.tasks.map((t: any) => t.taskId);
      expect(mine).toEqual(expect.arrayContaining([id, bound]));
    });

    it('tasks: false: no capabilities.tasks nor execution, tasks/* unknown, all tools run in the request', async () => {
      const off = await createFixtureApp({ tasks: false }, [], platform);
      try {
        const u = urlOf(off);
        const { session: s, result: init } = await initialize(u, { elicitation: {} });
        expect(init.capabilities).not.toHaveProperty('tasks');
        const h = legacyHeaders(s);
        const tools = (await post(u, request('tools/list'), h)).body.result.tools;
        expect(tools.some((t: Record<string, unknown>) => 'execution' in t)).toBe(false);
        for (const method of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']) {
          const r = await post(u, request(method, { taskId: 'x' }), h);
          expect(r.body.error.code).toBe(-32601);
        }
        const job = await post(u, request('tools/call', { name: 'job', arguments: { ms: 1 }, task: {} }), h);
        expect(job.body.result.content[0].text).toBe('job');
        expect(
          (await exchange(u, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': s } })).status,
        ).toBe(405);
      } finally {
        await off.close();
      }
    });
  });

  it(
    'app.close() ends open tasks/result and GET streams promptly',
    async () => {
      const other = await createFixtureApp({}, [], platform);
      const u = urlOf(other);
      const s = (await initialize(u, { elicitation: {} })).session;
      const get = await exchange(u, { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': s } });
      const created = await post(
        u,
        request('tools/call', { name: 'wait', arguments: { ms: 200 }, task: {} }),
        legacyHeaders(s),
      );
      const id = created.body.result.task.taskId;
      const res: LegacyExchange = await exchange(u, {
        body: request('tasks/result', { taskId: id }, 'closing'),
        headers: legacyHeaders(s),
      });
      await res.next((f) => f.method === 'notifications/tasks/status');
      const t0 = Date.now();
      await other.close();
      expect(Date.now() - t0).toBeLessThan(10_000);
      await Promise.all([get.ended, res.ended]);
      // The task finished within the shutdown grace: its stream ended with the result.
      expect(res.frames.find((f) => f.id === 'closing')?.result?.content?.[0]?.text).toBe('waited 200');
    },
    T,
  );

  it(
    'a task still running when the grace is over ends failed in the store first; its tasks/result says so',
    async () => {
      const other = await createFixtureApp({ shutdownGrace: 100 }, [], platform);
      const u = urlOf(other);
      const s = (await initialize(u, {})).session;
      const created = await post(
        u,
        request('tools/call', { name: 'wait', arguments: { ms: 60_000 }, task: {} }),
        legacyHeaders(s),
      );
      const id = created.body.result.task.taskId;
      const res: LegacyExchange = await exchange(u, {
        body: request('tasks/result', { taskId: id }, 'cut'),
        headers: legacyHeaders(s),
      });
      await res.next((f) => f.method === 'notifications/tasks/status');
      await other.close();
      await res.ended;
      const notes = res.frames.filter((f) => f.method === 'notifications/tasks/status').map((f) => f.params);
      expect(notes.at(-1)).toMatchObject({ taskId: id, status: 'failed', statusMessage: expect.any(String) });
      expect(res.frames.at(-1)).toMatchObject({
        id: 'cut',
        error: { code: -32603, message: 'The task was interrupted: the server shut down' },
      });
    },
    T,
  );
});
