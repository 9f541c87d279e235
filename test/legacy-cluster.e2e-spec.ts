import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { realmFetch } from '@mcp-tasks/client';
import { createClusterApp } from './fixtures/cluster-app.js';
import { exchange, initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { connectV1, drain, type V1Connection } from './support/v1-client.js';

const T = 60_000;
const YES = { action: 'accept', content: { ok: true } };
const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

type Target = 'a' | 'b';
/** What each instance received: `GET`, or the JSON-RPC method (`answer` for a client's response). */
type Log = Array<{ to: Target; what: string }>;

/**
 * A fetch that sends each message to the instance `route` picks (a load balancer without affinity), logging it.
 */
function routingFetch(urls: Record<Target, URL>, route: (what: string) => Target, log: Log): typeof fetch {
  return async (input, init) => {
    let what = init?.method ?? 'GET';
    if (what === 'POST' && typeof init?.body === 'string') {
      const body = JSON.parse(init.body) as { method?: string };
      what = body.method ?? 'answer';
    }
    const to = route(what);
    log.push({ to, what });
    const target = new URL(String(input instanceof Request ? input.url : input));
    target.port = urls[to].port;
    return realmFetch(target, init);
  };
}

/** Two instances on one PostgreSQL (store and bus): a 2025-11-25 client whose requests land on either. */
describe('2025-11-25 tasks on two instances', () => {
  let pg: TestPostgres;
  let a: INestApplication;
  let b: INestApplication;
  let urls: Record<Target, URL>;
  const open: V1Connection[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    // pollInterval 500: a GET stream waits 1 s before it takes a task's questions.
    a = await createClusterApp({ type: 'postgres', url: pg.url }, { pollInterval: 500 });
    b = await createClusterApp({ type: 'postgres', url: pg.url }, { pollInterval: 500 });
    urls = { a: urlOf(a), b: urlOf(b) };
  }, 60_000);
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await a?.close();
    await b?.close();
    await pg?.stop();
  });

  /** A v1 client whose messages `route` spreads over A and B, answering every elicitation with yes. */
  async function client(route: (what: string) => Target) {
    const log: Log = [];
    const c = await connectV1(urls.a, { capabilities: { elicitation: {} }, fetch: routingFetch(urls, route, log) });
    open.push(c);
    const asked: Array<string | undefined> = [];
    c.client.setRequestHandler(ElicitRequestSchema, async (_req, extra) => {
      asked.push(extra.taskId);
      return YES;
    });
    await c.client.listTools();
    return { c, log, asked };
  }

  it(
    'task on A, tasks/get and tasks/result on B, answers to A: the questions reach the client, the tool resumes',
    async () => {
      const { c, log, asked } = await client((what) => (what === 'tasks/get' || what === 'tasks/result' ? 'b' : 'a'));
      const messages = await drain(
        c.client.experimental.tasks.callToolStream({ name: 'ask', arguments: {} }, CallToolResultSchema, {
          timeout: T,
        }),
      );
      const id = (messages[0] as { task: { taskId: string } }).task.taskId;
      const last = messages.at(-1) as { type: string; result: { content: Array<{ text: string }> } };
      expect(last.type).toBe('result');
      expect(last.result.content[0].text).toBe('a=true again=true b=true');
      expect(asked).toEqual([id, id]);
      const to = (what: string) => [...new Set(log.filter((l) => l.what === what).map((l) => l.to))];
      expect(to('tools/call')).toEqual(['a']);
      expect(to('tasks/result')).toEqual(['b']);
      expect(to('answer')).toEqual(['a']);
    },
    T,
  );

  it(
    'everything on A but the answers, which land on B: relayed through the store and the bus',
    async () => {
      const { c, log } = await client((what) => (what === 'answer' ? 'b' : 'a'));
      const messages = await drain(
        c.client.experimental.tasks.callToolStream({ name: 'pair', arguments: {} }, CallToolResultSchema, {
          timeout: T,
        }),
      );
      const last = messages.at(-1) as { type: string; result: { content: Array<{ text: string }> } };
      expect(last.result.content[0].text).toBe('x=true y=true');
      expect(log.filter((l) => l.what === 'answer').map((l) => l.to)).toEqual(['b', 'b']);
    },
    T,
  );

  it(
    "a session opened on A is B's too; B's GET stream carries the questions of a task running on A",
    async () => {
      const { session } = await initialize(urls.a, { elicitation: {} });
      const get = await exchange(urls.b, {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': session },
      });
      try {
        expect(get.status).toBe(200);
        const created = await post(
          urls.a,
          request('tools/call', { name: 'ask', arguments: {}, task: {} }),
          legacyHeaders(session),
        );
        const id = created.body.result.task.taskId as string;
        const status = await get.next((f) => f.method === 'notifications/tasks/status' && f.params.taskId === id);
        expect(status.params.status).toBe('input_required');
        const first = await get.next((f) => typeof f.id === 'string' && f.id.startsWith('mcp-tasks/in:'));
        expect((await post(urls.a, { jsonrpc: '2.0', id: first.id, result: YES }, legacyHeaders(session))).status).toBe(
          202,
        );
        const second = await get.next(
          (f) => typeof f.id === 'string' && f.id.startsWith('mcp-tasks/in:') && f.id !== first.id,
        );
        expect(
          (await post(urls.b, { jsonrpc: '2.0', id: second.id, result: YES }, legacyHeaders(session))).status,
        ).toBe(202);
        await get.next((f) => f.method === 'notifications/tasks/status' && f.params.status === 'completed');
        const result = await post(urls.b, request('tasks/result', { taskId: id }), legacyHeaders(session));
        expect(result.body.result.content[0].text).toBe('a=true again=true b=true');
      } finally {
        get.close();
      }
    },
    T,
  );
});
