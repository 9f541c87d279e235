import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { realmFetch } from '@mcp-tasks/client';
import { McpPromptNotifier, McpResourceNotifier, TaskEventBus, type McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClusterApp } from './fixtures/cluster-app.js';
import { ClusterFeatures } from './fixtures/cluster-features.js';
import { forcedVersion } from './support/forced-version.js';
import { exchange, initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { listen } from './support/listen.js';
import { startNats, type TestNats } from './support/nats.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { startRedis, type TestRedis } from './support/redis.js';
import { slowLink, type SlowLink } from './support/slow-link.js';
import { until } from './support/until.js';
import { connectV1 } from './support/v1-client.js';

/** A's: it never re-reads the store while the suite runs. */
const POLL = 300_000;
/** B's: its GET stream sends a task's questions two poll intervals after it learned the task waits. */
const SHORT_POLL = 500;
/** How long a frame may take (a reconnect's backoff included) on a loaded 2-core machine. */
const WITHIN = 30_000;

/** The task a 2025-era frame is about: a request's related task, or a status notification's task. */
const taskOf = (f: Record<string, any>): unknown =>
  f.params?._meta?.['io.modelcontextprotocol/related-task']?.taskId ?? f.params?.taskId;

/**
 * Issue 40: B's link to the broker is cut while a task of its GET stream's session asks a question on A; the event
 * saying so is never relayed to B. Once B's bus follows the session again it says so (`onActive`), the stream lists
 * the session's tasks again and sends the question — before, it never did (its poll only retries the tasks it knew
 * were waiting). Nothing is sent twice for the re-read. Resource and prompt changes A announced meanwhile are lost
 * for B's streams, nothing holds them: once back, B sends each stream every change it may have missed.
 */
let pg: TestPostgres;
// One store for the three buses' cases (each its own apps and tasks): the suite starts one PostgreSQL, not three.
beforeAll(async () => void (pg = await startPostgres()), 60_000);
afterAll(async () => pg?.stop());

describe.each(['postgres', 'redis', 'nats'] as const)('bus re-join: a GET stream catches up (%s bus)', (kind) => {
  let broker: TestRedis | TestNats | undefined;
  let a: INestApplication;
  let b: INestApplication;
  /** Takes the answers of the last case: it sends one again every SHORT_POLL until its receipt. */
  let c: INestApplication;
  let link: SlowLink;
  let urls: { a: URL; b: URL; c: URL };

  beforeAll(async () => {
    broker = kind === 'redis' ? await startRedis() : kind === 'nats' ? await startNats() : undefined;
    const url = broker?.url ?? pg.url;
    const { hostname, port } = new URL(url);
    link = await slowLink(hostname, Number(port), 0);
    const bus = (connection: string) => ({ type: kind, connection }) as McpTasksModuleOptions['bus'];
    const store = { type: 'postgres' as const, url: pg.url };
    a = await createClusterApp(store, { pollInterval: POLL, bus: bus(url) }, [ClusterFeatures]);
    b = await createClusterApp(store, { pollInterval: SHORT_POLL, bus: bus(link.via(url)) }, [ClusterFeatures]);
    c = await createClusterApp(store, { pollInterval: SHORT_POLL, bus: bus(url) });
    const urlOf = (app: INestApplication) => new URL(`http://127.0.0.1:${app.getHttpServer().address().port}/mcp`);
    urls = { a: urlOf(a), b: urlOf(b), c: urlOf(c) };
  }, 90_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await c?.close();
    await link?.close();
    await broker?.stop();
  });

  it('sends the question a task asked on A while B’s link was down, once, and nothing twice', async () => {
    const connected = () => b.get<TaskEventBus>(TaskEventBus).health?.().connected;
    const { session } = await initialize(urls.a, { elicitation: {} });
    const headers = legacyHeaders(session);
    const stream = await exchange(urls.b, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session },
    });
    const ask = async () => {
      const created = await post(urls.a, request('tools/call', { name: 'askOnce', arguments: {}, task: {} }), headers);
      return created.body.result.task.taskId as string;
    };
    const asks = (id: string) => (f: Record<string, any>) => f.method === 'elicitation/create' && taskOf(f) === id;
    const status = (id: string, s: string) => (f: Record<string, any>) =>
      f.method === 'notifications/tasks/status' && taskOf(f) === id && f.params?.status === s;
    try {
      // The stream follows the session: a task asking on A reaches it over the bus.
      const before = await ask();
      await stream.next(asks(before), WITHIN);
      await post(urls.a, request('tasks/cancel', { taskId: before }), headers);
      await stream.next(status(before, 'cancelled'), WITHIN);

      await link.cut();
      await until('B’s bus to lose its link', () => connected() === false, WITHIN);
      const during = await ask();
      await until(
        'the task to ask on A',
        async () =>
          (await post(urls.a, request('tasks/get', { taskId: during }), headers)).body.result?.status ===
          'input_required',
        WITHIN,
      );
      // Past B's grace: a stream that knew of the task would have sent its question by now.
      await sleep(4 * SHORT_POLL);
      expect(stream.frames.filter(asks(during))).toEqual([]);
      await link.restore();

      await stream.next(asks(during), WITHIN);
      await post(urls.a, request('tasks/cancel', { taskId: during }), headers);
      await stream.next(status(during, 'cancelled'), WITHIN);
      await sleep(4 * SHORT_POLL);
      for (const id of [before, during]) {
        expect(stream.frames.filter(asks(id))).toHaveLength(1);
        for (const s of ['input_required', 'cancelled']) expect(stream.frames.filter(status(id, s))).toHaveLength(1);
      }
    } finally {
      stream.close();
    }
  }, 120_000);

  it('takes an answer relayed while B’s link was down to the call asking on B in the request, once back', async () => {
    const connected = () => b.get<TaskEventBus>(TaskEventBus).health?.().connected;
    let answered = 0;
    // The call runs on B; the client's answer goes to C, which relays it while B hears nothing.
    const toC: typeof fetch = async (input, init) => {
      const target = new URL(String(input instanceof Request ? input.url : input));
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
      const answer = init?.method === 'POST' && !body.method;
      if (answer) target.port = urls.c.port;
      const res = await realmFetch(target, init);
      if (answer) answered = res.status;
      return res;
    };
    const client = await connectV1(urls.b, {
      capabilities: { elicitation: {} },
      fetch: forcedVersion('2025-06-18', toC),
    });
    try {
      client.client.setRequestHandler(ElicitRequestSchema, async () => {
        await link.cut();
        await until('B’s bus to lose its link', () => connected() === false, WITHIN);
        return { action: 'accept', content: { ok: true } };
      });
      const result = client.client.callTool({ name: 'askOnce', arguments: {} }, undefined, { timeout: 2 * WITHIN });
      await until('C to take the answer', () => answered !== 0, WITHIN);
      expect(answered).toBe(202);
      // Several of C's sends went nowhere: B's link is still down.
      await sleep(4 * SHORT_POLL);
      await link.restore();
      expect((await result).content).toEqual([{ type: 'text', text: 'q=accept cancelled=false' }]);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('sends B’s streams the resource and prompt changes A announced while B’s link was down, once back', async () => {
    const connected = () => b.get<TaskEventBus>(TaskEventBus).health?.().connected;
    await until('B’s bus to have its link', () => connected() === true, WITHIN);
    const { session } = await initialize(urls.b);
    const subscribed = await post(
      urls.b,
      request('resources/subscribe', { uri: 'docs://notes' }),
      legacyHeaders(session),
    );
    expect(subscribed.body.result).toEqual({});
    const legacy = await exchange(urls.b, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': session },
    });
    const notifications = {
      resourcesListChanged: true,
      promptsListChanged: true,
      resourceSubscriptions: ['docs://notes'],
    };
    const modern = await listen(b, notifications, { id: 'changes' });
    const methods = ['resources/list_changed', 'prompts/list_changed', 'resources/updated'];
    const is = (m: string) => (f: Record<string, any>) =>
      f.method === `notifications/${m}` && (m !== 'resources/updated' || f.params?.uri === 'docs://notes');
    try {
      await modern.next((f) => f.method === 'notifications/subscriptions/acknowledged');
      // Both streams hear A's announcements while the link is up.
      a.get(McpPromptNotifier).listChanged();
      await legacy.next(is('prompts/list_changed'), WITHIN);
      await modern.next(is('prompts/list_changed'), WITHIN);
      await link.cut();
      await until('B’s bus to lose its link', () => connected() === false, WITHIN);
      const from = { legacy: legacy.frames.length, modern: modern.frames.length };
      a.get(McpResourceNotifier).listChanged();
      a.get(McpResourceNotifier).updated('docs://notes');
      a.get(McpPromptNotifier).listChanged();
      await sleep(4 * SHORT_POLL);
      // Lost: B was not listening.
      const meanwhile = [...legacy.frames.slice(from.legacy), ...modern.frames.slice(from.modern)];
      for (const m of methods) expect(meanwhile.filter(is(m))).toEqual([]);
      await link.restore();
      for (const m of methods) {
        await legacy.next(is(m), WITHIN, from.legacy);
        const sent = await modern.next(is(m), WITHIN, from.modern);
        expect(sent.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': 'changes' });
      }
    } finally {
      legacy.close();
      modern.close();
    }
  }, 120_000);
});
