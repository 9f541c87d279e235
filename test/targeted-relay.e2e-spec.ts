import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { realmFetch } from '@mcp-tasks/client';
import { TaskEventBus, type TaskEvent } from '@mcp-tasks/nestjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClusterApp } from './fixtures/cluster-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { forcedVersion } from './support/forced-version.js';
import { exchange, initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { listen } from './support/listen.js';
import { call, cancelTask, getTask, TASKS, updateTask, waitForTask } from './support/mcp-request.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';
import { connectV1, type V1Connection } from './support/v1-client.js';

const T = 60_000;
const FULL = { ...TASKS, elicitation: {} };
const YES = { action: 'accept', content: { ok: true } };
const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

type Bus = TaskEventBus & { followedTopics: number };
/** Whether a task (a `tasks/get` reply or a notification) asks the question `message`. */
const asking = (x: unknown, message: string) => JSON.stringify(x).includes(JSON.stringify(message));
type Name = 'a' | 'b' | 'c';

/**
 * Issue 40: three instances on one PostgreSQL (store and bus). A task's events reach only the instances that run it,
 * listen to it or wait on it: C, which does none of that, hears nothing of the tasks A and B share — while cancel,
 * answers, listens and 2025-era streams still cross instances, and every follow ends with what needed it.
 */
describe('targeted relays: three instances on one PostgreSQL', () => {
  let pg: TestPostgres;
  const apps = {} as Record<Name, INestApplication>;
  const buses = {} as Record<Name, Bus>;
  /** What each instance's bus delivered, every event. */
  const heard: Record<Name, TaskEvent[]> = { a: [], b: [], c: [] };
  const about = (name: Name, taskId: string) => heard[name].filter((e) => e.taskId === taskId);
  const open: V1Connection[] = [];

  beforeAll(async () => {
    pg = await startPostgres();
    for (const name of ['a', 'b', 'c'] as const) {
      // A long poll interval: anything faster than it came through the bus.
      apps[name] = await createClusterApp({ type: 'postgres', url: pg.url }, { pollInterval: 4000 });
      buses[name] = apps[name].get<Bus>(TaskEventBus);
      buses[name].subscribe((e) => heard[name].push(e));
    }
  }, 60_000);
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    for (const app of Object.values(apps)) await app?.close();
    await pg?.stop();
  });

  /** Every follow ended on every instance (closing a stream is seen by the server a moment later). */
  const noFollows = () =>
    until(
      'no topic followed on A, B or C',
      () => Object.values(buses).every((b) => b.followedTopics === 0),
      10_000,
    ).catch((err) => {
      throw new Error(
        `${err}: ${Object.values(buses)
          .map((b) => b.followedTopics)
          .join(', ')}`,
      );
    });

  it(
    'tasks/cancel on B stops the run on A at once; C hears nothing of the task',
    async () => {
      const id = (await call(apps.a, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId as string;
      expect(buses.a.followedTopics).toBe(1);
      await sleep(200);
      const t0 = Date.now();
      await cancelTask(apps.b, id);
      await until('the run on A aborted', () => observed.aborted.has(id), 3000, 5);
      expect(Date.now() - t0).toBeLessThan(3000);
      expect(about('a', id).map((e) => e.type)).toEqual(expect.arrayContaining(['status-changed', 'cancel-requested']));
      await noFollows();
      expect(about('c', id)).toEqual([]);
    },
    T,
  );

  it(
    'tasks/update on B wakes the run on A; a listen on B follows it; C hears nothing; follows end with them',
    async () => {
      const id = (await call(apps.a, 'ask', {}, { caps: FULL })).body.result.taskId as string;
      await waitForTask(apps.b, id, (s) => s === 'input_required');
      const stream = await listen(apps.b, { taskIds: [id] }, { caps: TASKS });
      await stream.next((f) => f.method === 'notifications/subscriptions/acknowledged');
      // A runs it, B listens: one topic each.
      expect([buses.a.followedTopics, buses.b.followedTopics, buses.c.followedTopics]).toEqual([1, 1, 0]);
      const t0 = Date.now();
      await updateTask(apps.b, id, { a: YES });
      // The run asks its next question: A woke through the bus (well within the poll interval) ...
      await until('the run asked again', async () => asking((await getTask(apps.b, id)).body, 'Second?'), 3000, 20);
      expect(Date.now() - t0).toBeLessThan(3000);
      // ... and B's listen heard A write it.
      const next = await stream.next((f) => f.method === 'notifications/tasks' && asking(f, 'Second?'), 3000);
      expect(next.params.taskId).toBe(id);
      stream.close();
      await until('B unfollowed the closed listen', () => buses.b.followedTopics === 0, 10_000);
      // B's UNLISTEN is on its way: what A publishes now no longer reaches B.
      await sleep(300);
      const before = about('b', id).length;
      await updateTask(apps.a, id, { b: YES });
      expect((await waitForTask(apps.a, id, undefined, 3000)).status).toBe('completed');
      await sleep(300);
      expect(about('b', id).length).toBe(before);
      expect(about('a', id).filter((e) => e.type === 'status-changed').length).toBeGreaterThanOrEqual(4);
      await noFollows();
      expect(about('c', id)).toEqual([]);
    },
    T,
  );

  it(
    "a 2025-era session's GET stream and tasks/result stream on B follow a task run on A, each event once; C nothing",
    async () => {
      const { session } = await initialize(urlOf(apps.a), { elicitation: {} });
      const get = await exchange(urlOf(apps.b), {
        method: 'GET',
        headers: { accept: 'text/event-stream', 'mcp-session-id': session },
      });
      expect(get.status).toBe(200);
      const created = await post(
        urlOf(apps.a),
        request('tools/call', { name: 'ask', arguments: {}, task: {} }),
        legacyHeaders(session),
      );
      const id = created.body.result.task.taskId as string;
      const status = await get.next((f) => f.method === 'notifications/tasks/status' && f.params.taskId === id, 3000);
      expect(status.params.status).toBe('input_required');
      // B's tasks/result follows the task too: B then follows the session and the task, and hears each event once.
      const result = await exchange(urlOf(apps.b), {
        body: request('tasks/result', { taskId: id }),
        headers: legacyHeaders(session),
      });
      await until('B follows the session and the task', () => buses.b.followedTopics === 2, 5000).catch((err) => {
        throw new Error(`${err}: ${buses.b.followedTopics} ${result.status} ${JSON.stringify(result.frames)}`);
      });
      const asked = new Set<string>();
      const answerNext = async () => {
        const q = await result.next(
          (f) => typeof f.id === 'string' && f.id.startsWith('mcp-tasks/in:') && !asked.has(f.id),
        );
        asked.add(q.id as string);
        expect(
          (await post(urlOf(apps.a), { jsonrpc: '2.0', id: q.id, result: YES }, legacyHeaders(session))).status,
        ).toBe(202);
      };
      for (let i = 0; i < 2; i++) await answerNext();
      await result.ended;
      expect(result.frames.at(-1)?.result?.content?.[0]?.text).toBe('a=true again=true b=true');
      // Every status change was published on A (the run, and the answers POSTed there): B heard each once. B's stream
      // may end on a store read before A's NOTIFY of the end reaches B (a loaded machine): B keeps following till then.
      const changes = (n: Name) => about(n, id).filter((e) => e.type === 'status-changed').length;
      const shown = (n: Name) => about(n, id).map((e) => (e.type === 'status-changed' ? e.status : e.type));
      await until('B to hear each status change A published', () => changes('b') >= changes('a'), 10_000).catch(
        (err) => {
          throw new Error(`${err}: A heard ${shown('a').join(',')}; B ${shown('b').join(',')}`);
        },
      );
      get.close();
      await noFollows();
      expect(changes('a')).toBeGreaterThanOrEqual(4);
      expect(changes('b')).toBe(changes('a'));
      expect(about('c', id)).toEqual([]);
    },
    T,
  );

  it(
    "a plain 2025-era call's question answered through B reaches the run on A; C hears nothing of the run",
    async () => {
      // The client's answers go to B; everything else to A.
      const toB: typeof fetch = async (input, init) => {
        const target = new URL(String(input instanceof Request ? input.url : input));
        const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
        if (init?.method === 'POST' && !body.method) target.port = urlOf(apps.b).port;
        return realmFetch(target, init);
      };
      const c = await connectV1(urlOf(apps.a), {
        capabilities: { elicitation: {} },
        fetch: forcedVersion('2025-06-18', toB),
      });
      open.push(c);
      c.client.setRequestHandler(ElicitRequestSchema, async () => YES);
      const heardBefore = heard.c.length;
      const result = await c.client.callTool({ name: 'ask', arguments: {} }, undefined, { timeout: T });
      expect(result.content).toEqual([{ type: 'text', text: 'a=true again=true b=true' }]);
      const answers = heard.a.filter((e) => e.type === 'question-answered');
      expect(answers.length).toBeGreaterThanOrEqual(2);
      // The client's session GET stream on A follows its session until the client leaves.
      expect(buses.a.followedTopics).toBe(1);
      await c.close();
      await noFollows();
      expect(heard.c.slice(heardBefore).filter((e) => e.type === 'question-answered')).toEqual([]);
    },
    T,
  );

  it('C, which ran, listened to and waited on nothing, heard no event; A and B can still read its tasks', async () => {
    expect(heard.c).toEqual([]);
    const id = (await call(apps.c, 'wait', { ms: 50 }, { caps: TASKS })).body.result.taskId as string;
    expect((await waitForTask(apps.a, id)).status).toBe('completed');
    expect((await getTask(apps.b, id)).body.result.status).toBe('completed');
    await noFollows();
  });
});
