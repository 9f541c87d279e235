import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { createAuthApp } from './fixtures/auth-app.js';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { questionRuns, QuestionToolsModule } from './fixtures/question-tools.js';
import { forcedVersion } from './support/forced-version.js';
import { exchange, initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { hs256 } from './support/tokens.js';
import { until } from './support/until.js';
import { codeOf, connectV1, type V1Connection } from './support/v1-client.js';

const T = 60_000;
const YES = { action: 'accept', content: { ok: true } };
const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);
const isAsk = (f: Record<string, any>) => f.method === 'elicitation/create';
const answerOf = (id: unknown, body: Record<string, unknown>) => ({ jsonrpc: '2.0', id, ...body });

/**
 * Issue 39, item 1: a 2025-era client that declared the capability is asked during its plain `tools/call`, on the
 * call's stream, and answers with a POST — the official v1 SDK client as deployed, and the raw wire.
 */
describe('questions during a plain 2025-era tools/call', () => {
  let app: INestApplication;
  let url: URL;
  const open: V1Connection[] = [];
  const v1 = async (version: string, capabilities: Record<string, object> = {}) => {
    const c = await connectV1(url, { capabilities, fetch: forcedVersion(version) });
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    app = await createFixtureApp({}, [QuestionToolsModule]);
    url = urlOf(app);
  });
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await app?.close();
  });
  beforeEach(() => {
    questionRuns.aborted.length = 0;
    questionRuns.failed.length = 0;
  });

  for (const version of ['2025-06-18', '2025-11-25']) {
    it(
      `v1 client at ${version}: elicitation/create on the call's stream, the tool's result built from the answers`,
      async () => {
        const c = await v1(version, { elicitation: {} });
        const asked: Array<{ message: unknown; taskId?: string }> = [];
        c.client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
          asked.push({ message: req.params.message, taskId: extra.taskId });
          return YES;
        });
        const result = await c.client.callTool({ name: 'ask', arguments: {} }, undefined, { timeout: T });
        expect(result.content).toEqual([{ type: 'text', text: 'a=true again=true b=true' }]);
        // Key `a` asked twice in the run: one question; no task anywhere.
        expect(asked).toEqual([{ message: 'First?' }, { message: 'Second?' }]);
        expect(c.transport.protocolVersion).toBe(version);
      },
      T,
    );
  }

  it(
    "v1 client at 2025-06-18: prepare's question and the run's, both on the call's stream",
    async () => {
      const c = await v1('2025-06-18', { elicitation: {} });
      const asked: unknown[] = [];
      c.client.setRequestHandler(ElicitRequestSchema, async (req) => (asked.push(req.params.message), YES));
      const result = await c.client.callTool({ name: 'prepAsk', arguments: {} }, undefined, { timeout: T });
      expect(result.content).toEqual([{ type: 'text', text: 'who=true more=true' }]);
      expect(asked).toEqual(['Who?', 'More?']);
    },
    T,
  );

  it(
    'v1 client at 2024-11-05 answers sampling/createMessage, at 2025-03-26 roots/list',
    async () => {
      const s = await v1('2024-11-05', { sampling: {} });
      s.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: 'assistant',
        content: { type: 'text', text: '4' },
        model: 'm',
      }));
      const sampled = await s.client.callTool({ name: 'sample', arguments: {} }, undefined, { timeout: T });
      expect(sampled.content).toEqual([{ type: 'text', text: 'model: 4' }]);
      const r = await v1('2025-03-26', { roots: {} });
      r.client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: 'file:///a' }] }));
      const rooted = await r.client.callTool({ name: 'roots', arguments: {} }, undefined, { timeout: T });
      expect(rooted.content).toEqual([{ type: 'text', text: 'roots: file:///a' }]);
    },
    T,
  );

  it('a client without the capability: -32600 whose hint fits its version (2025-06-18: no params.task)', async () => {
    const bare = await v1('2025-06-18');
    const err = await bare.client.callTool({ name: 'ask', arguments: {} }).catch((e: unknown) => e);
    expect(codeOf(err)).toBe(-32600);
    expect((err as Error).message).toContain(
      'Tool ask needs the client capability "elicitation" (elicitation/create), which this client did not ' +
        'declare: declare it in initialize to be asked during the call',
    );
    expect((err as Error).message).not.toContain('params.task');
    // 2025-03-26 has no elicitation at all, whatever the client declared.
    const old = await v1('2025-03-26', { elicitation: {} });
    const oldErr = await old.client.callTool({ name: 'ask', arguments: {} }).catch((e: unknown) => e);
    expect(codeOf(oldErr)).toBe(-32600);
    expect((oldErr as Error).message).toContain(
      'Tool ask asks for input with elicitation/create, which protocol 2025-03-26 does not have: connect with ' +
        'protocol 2025-06-18 or later',
    );
  });

  describe('on the raw wire (2025-06-18)', () => {
    const V = '2025-06-18';
    let session: string;
    const headers = (s = session) => legacyHeaders(s, { 'mcp-protocol-version': V });
    const call = (id: string, s = session) =>
      exchange(url, { body: request('tools/call', { name: 'askWatch', arguments: {} }, id), headers: headers(s) });

    beforeAll(async () => {
      session = (await initialize(url, { elicitation: {} }, V)).session;
    });

    it('the question is a JSON-RPC request on the SSE reply; its id is sealed, not a task input id', async () => {
      const x = await call('c1');
      expect(x.headers['content-type']).toContain('text/event-stream');
      const q = await x.next(isAsk);
      expect(q).toMatchObject({ jsonrpc: '2.0', method: 'elicitation/create', params: { message: 'Q?' } });
      expect(q.id).toMatch(/^mcp-tasks\/q\./);
      expect(q.params._meta).toBeUndefined();
      // 2025-06-18 elicitation has no `mode` (2025-11-25 added it).
      expect(q.params).toEqual({ message: 'Q?', requestedSchema: expect.any(Object) });
      const res = await post(url, answerOf(q.id, { result: YES }), headers());
      expect(res.status).toBe(202);
      await x.ended;
      expect(x.frames.at(-1)).toEqual({
        jsonrpc: '2.0',
        id: 'c1',
        result: { content: [{ type: 'text', text: 'q=accept ok=true' }] },
      });
    });

    it('an answer of the wrong shape is refused (400 -32602) and fails the call clearly', async () => {
      const x = await call('c2');
      const q = await x.next(isAsk);
      const res = await post(url, answerOf(q.id, { result: { action: 'maybe' } }), headers());
      expect(res.status).toBe(400);
      const invalid = "The client's answer to elicitation/create is not a valid result";
      expect(res.body.error).toEqual({ code: -32602, message: invalid });
      await x.ended;
      expect(x.frames.at(-1)).toMatchObject({
        id: 'c2',
        error: { code: -32603, message: `The client could not answer elicitation/create (-32602: ${invalid})` },
      });
    });

    it("the client's error answer makes the tool's ask throw it", async () => {
      const x = await call('c3');
      const q = await x.next(isAsk);
      expect((await post(url, answerOf(q.id, { error: { code: -1, message: 'nope' } }), headers())).status).toBe(202);
      await x.ended;
      expect(x.frames.at(-1)).toMatchObject({ id: 'c3', error: { code: -32603 } });
      expect(questionRuns.failed).toEqual(['The client could not answer elicitation/create (-1: nope)']);
    });

    it('an answer from another session, or to a tampered id, is dropped (202); the run still waits', async () => {
      const x = await call('c4');
      const q = await x.next(isAsk);
      const other = (await initialize(url, { elicitation: {} }, V)).session;
      expect((await post(url, answerOf(q.id, { result: YES }), headers(other))).status).toBe(202);
      const tampered = `${String(q.id).slice(0, -2)}${String(q.id).endsWith('AA') ? 'AB' : 'AA'}`;
      expect((await post(url, answerOf(tampered, { result: YES }), headers())).status).toBe(202);
      await new Promise((r) => setTimeout(r, 300));
      expect(x.frames.filter((f) => f.id === 'c4')).toEqual([]);
      const no = { action: 'decline' };
      expect((await post(url, answerOf(q.id, { result: no }), headers())).status).toBe(202);
      await x.ended;
      expect(x.frames.at(-1)).toMatchObject({ id: 'c4', result: { content: [{ text: 'q=decline ok=undefined' }] } });
    });

    it("closing the call's stream aborts the run's signal; the ask rejects with it; a late answer is 202", async () => {
      const x = await call('c5');
      const q = await x.next(isAsk);
      x.close();
      await until('the run aborted', () => questionRuns.aborted.includes('connection closed'));
      await until('the ask rejected', () => questionRuns.failed.includes('connection closed'));
      expect((await post(url, answerOf(q.id, { result: YES }), headers())).status).toBe(202);
    });

    it('notifications/cancelled while a question waits: the run stops, nothing more is sent for the call', async () => {
      const x = await call('c6');
      const q = await x.next(isAsk);
      const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c6' } };
      expect((await post(url, cancel, headers())).status).toBe(202);
      await x.ended;
      expect(questionRuns.aborted).toEqual(['cancelled']);
      expect(x.frames).toEqual([q]);
    });
  });
});

describe('questions during a plain call: questionTimeout', () => {
  let app: INestApplication;
  let url: URL;

  beforeAll(async () => {
    app = await createFixtureApp({ questionTimeout: 400 }, [QuestionToolsModule]);
    url = urlOf(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('no answer in time: notifications/cancelled for the question, -32001 for the call; late answer 202', async () => {
    const V = '2025-11-25';
    const { session } = await initialize(url, { elicitation: {} }, V);
    const headers = legacyHeaders(session, { 'mcp-protocol-version': V });
    const x = await exchange(url, {
      body: request('tools/call', { name: 'askWatch', arguments: {} }, 't1'),
      headers,
    });
    const q = await x.next(isAsk);
    expect(q.params).toMatchObject({ mode: 'form', message: 'Q?' });
    await x.ended;
    const message = 'No answer to elicitation/create came within 400 ms (the questionTimeout option)';
    expect(x.frames.slice(1)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: q.id, reason: message } },
      { jsonrpc: '2.0', id: 't1', error: { code: -32001, message: `Tool askWatch: ${message}` } },
    ]);
    expect((await post(url, answerOf(q.id, { result: YES }), headers)).status).toBe(202);
  });
});

describe('questions during a plain call under auth', () => {
  let app: INestApplication;
  let url: URL;

  beforeAll(async () => {
    app = await createAuthApp({}, [QuestionToolsModule]);
    url = urlOf(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  it("another principal's answer is dropped (202), even in the caller's session (404); the run waits", async () => {
    const V = '2025-06-18';
    const as = (sub: string) => ({ authorization: `Bearer ${hs256({ sub })}` });
    const start = async (sub: string) => {
      const params = { protocolVersion: V, capabilities: { elicitation: {} }, clientInfo: { name: 'w', version: '1' } };
      const res = await post(url, request('initialize', params), {
        ...legacyHeaders(undefined, { 'mcp-protocol-version': null }),
        ...as(sub),
      });
      return { ...legacyHeaders(res.headers['mcp-session-id'] as string, { 'mcp-protocol-version': V }), ...as(sub) };
    };
    const alice = await start('alice');
    const bob = await start('bob');
    const x = await exchange(url, {
      body: request('tools/call', { name: 'askWatch', arguments: {} }, 'p1'),
      headers: alice,
    });
    const q = await x.next(isAsk);
    expect((await post(url, answerOf(q.id, { result: YES }), bob)).status).toBe(202);
    const inAlicesSession = { ...alice, ...as('bob') };
    expect((await post(url, answerOf(q.id, { result: YES }), inAlicesSession)).status).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(x.frames.filter((f) => f.id === 'p1')).toEqual([]);
    expect((await post(url, answerOf(q.id, { result: YES }), alice)).status).toBe(202);
    await x.ended;
    expect(x.frames.at(-1)).toMatchObject({ id: 'p1', result: { content: [{ text: 'q=accept ok=true' }] } });
  });
});
