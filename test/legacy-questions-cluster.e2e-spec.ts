import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { realmFetch } from '@mcp-tasks/client';
import { createClusterApp } from './fixtures/cluster-app.js';
import { forcedVersion } from './support/forced-version.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';
import { codeOf, connectV1, type V1Connection } from './support/v1-client.js';

const T = 60_000;
const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

/** Where each POST went: `answer` for a client's response, else its method; and the status it got (0 until then). */
type Log = Array<{ port: string; what: string; status: number }>;

/** A fetch that sends the client's answers to `answers` and everything else where the client aimed it. */
function answersTo(answers: URL, log: Log): typeof fetch {
  return async (input, init) => {
    const target = new URL(String(input instanceof Request ? input.url : input));
    let what = init?.method ?? 'GET';
    if (what === 'POST' && typeof init?.body === 'string') {
      what = (JSON.parse(init.body) as { method?: string }).method ?? 'answer';
      if (what === 'answer') target.port = answers.port;
    }
    // Logged when sent: the call's result may reach the client before the answer's own response does.
    const entry = { port: target.port, what, status: 0 };
    log.push(entry);
    const res = await realmFetch(target, init);
    entry.status = res.status;
    return res;
  };
}

/** The client's `n` answers, once each got its response. */
const answered = (log: Log, n: number) =>
  until(`${n} answers with their responses`, () => {
    const answers = log.filter((e) => e.what === 'answer');
    return answers.length === n && answers.every((e) => e.status) && answers;
  });

/** Issue 39, item 1: the answer to a question asked during a plain call may reach another instance. */
describe('questions during a plain 2025-era call on two instances (PostgreSQL store and bus)', () => {
  let pg: TestPostgres;
  let a: INestApplication;
  let b: INestApplication;
  const open: V1Connection[] = [];
  const client = async (capabilities: Record<string, object>, log: Log) => {
    const c = await connectV1(urlOf(a), { capabilities, fetch: forcedVersion('2025-06-18', answersTo(urlOf(b), log)) });
    open.push(c);
    return c;
  };

  beforeAll(async () => {
    pg = await startPostgres();
    a = await createClusterApp({ type: 'postgres', url: pg.url });
    b = await createClusterApp({ type: 'postgres', url: pg.url });
  }, 60_000);
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await a?.close();
    await b?.close();
    await pg?.stop();
  });

  it(
    'the call runs on A, the answers are POSTed to B: they reach the run through the bus',
    async () => {
      const log: Log = [];
      const c = await client({ elicitation: {} }, log);
      c.client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { ok: true } }));
      const result = await c.client.callTool({ name: 'ask', arguments: {} }, undefined, { timeout: T });
      expect(result.content).toEqual([{ type: 'text', text: 'a=true again=true b=true' }]);
      const answers = await answered(log, 2);
      expect(answers).toEqual([
        { port: urlOf(b).port, what: 'answer', status: 202 },
        { port: urlOf(b).port, what: 'answer', status: 202 },
      ]);
      expect(log.find((e) => e.what === 'tools/call')?.port).toBe(urlOf(a).port);
    },
    T,
  );

  it(
    'an answer too large for a NOTIFY is refused (500) where it landed, and the call fails saying so',
    async () => {
      const log: Log = [];
      const c = await client({ sampling: {} }, log);
      const text = 'x'.repeat(9_000);
      c.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
        role: 'assistant',
        content: { type: 'text', text },
        model: 'm',
      }));
      const err = await c.client
        .callTool({ name: 'sample', arguments: {} }, undefined, { timeout: T })
        .catch((e: unknown) => e);
      expect(codeOf(err)).toBe(-32603);
      const relay = 'The answer could not be relayed to the instance running the call';
      expect((err as Error).message).toContain(`The client could not answer sampling/createMessage (-32603: ${relay}`);
      expect((err as Error).message).toMatch(/it takes \d+ bytes, over PostgreSQL's NOTIFY limit of 8000\)$/);
      expect(await answered(log, 1)).toEqual([{ port: urlOf(b).port, what: 'answer', status: 500 }]);
    },
    T,
  );
});
