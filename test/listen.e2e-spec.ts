import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { listen } from './support/listen.js';
import { call, cancelTask, getTask, TASKS, updateTask } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';

const FULL = { ...TASKS, elicitation: {} };
const SUB = 'io.modelcontextprotocol/subscriptionId';

describe.each(PLATFORMS)('on %s', (platform) => {
  const fixtureApp = (options: Parameters<typeof createFixtureApp>[0] = {}, imports: unknown[] = []) =>
    createFixtureApp(options, imports, platform);

  describe('subscriptions/listen for task status', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await fixtureApp({ subject: (req) => String(req.headers['x-user'] ?? 'me') });
    });
    afterAll(() => app.close());

    const start = async (name: string, args: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
      (await call(app, name, args, { caps: FULL, headers })).body.result.taskId as string;

    it('needs the extension declared (-32021)', async () => {
      const s = await listen(app, { taskIds: ['x'] }, { caps: {} });
      expect(s.status).toBe(400);
      s.close();
    });

    it('refuses more than 100 ids and non-string ids (-32602)', async () => {
      for (const taskIds of [Array.from({ length: 101 }, (_, i) => `t${i}`), [1, 2], 'x']) {
        const s = await listen(app, { taskIds }, { caps: TASKS });
        expect(s.status).toBe(200);
        const err = await s.next((f) => !!f.error);
        expect(err.error.code).toBe(-32602);
        s.close();
      }
      const hundred = await listen(app, { taskIds: Array.from({ length: 100 }, (_, i) => `t${i}`) }, { caps: TASKS });
      expect(
        (await hundred.next((f) => f.method === 'notifications/subscriptions/acknowledged')).params.notifications
          .taskIds,
      ).toEqual([]);
      hundred.close();
    });

    it('acknowledges only the caller’s ids, then one notification per status change with the full task', async () => {
      const mine = await start('ask');
      const foreign = await start('wait', { ms: 60_000 }, { 'x-user': 'someone-else' });
      const s = await listen(app, { taskIds: [mine, foreign, 'unknown-id'] }, { caps: TASKS, id: 42 });
      expect(s.status).toBe(200);
      const ack = await s.next((f) => f.method === 'notifications/subscriptions/acknowledged');
      expect(ack.params).toEqual({ _meta: { [SUB]: 42 }, notifications: { taskIds: [mine] } });

      // working → input_required may already have happened before the ack; drive the rest explicitly.
      const waiting = (await getTask(app, mine)).body.result;
      expect(waiting.status).toBe('input_required');
      await updateTask(app, mine, { a: { action: 'accept', content: { ok: true } } });
      const asked = await s.next((f) => f.method === 'notifications/tasks' && f.params.inputRequests?.b);
      const snapshot = (await getTask(app, mine)).body.result;
      const { resultType: _r, _meta: _m, ...task } = snapshot;
      expect(asked.params).toEqual({ ...task, _meta: { [SUB]: 42 } });
      await updateTask(app, mine, { b: { action: 'accept', content: { ok: true } } });
      const done = await s.next((f) => f.method === 'notifications/tasks' && f.params.status === 'completed');
      expect(done.params.result.content[0].text).toBe('a=true again=true b=true');
      expect(s.frames.every((f) => f.method !== 'notifications/tasks' || f.params.taskId === mine)).toBe(true);
      const statuses = s.frames
        .filter((f) => f.method === 'notifications/tasks')
        .map((f) => `${f.params.status}:${Object.keys(f.params.inputRequests ?? {}).join()}`);
      // Each notification is the task as it is when sent: changes in quick succession may coalesce, never repeat.
      expect(statuses).toEqual(expect.arrayContaining(['input_required:b', 'completed:']));
      expect(statuses.at(-1)).toBe('completed:');
      expect(statuses.every((v, i) => i === 0 || v !== statuses[i - 1])).toBe(true);
      s.close();
      await cancelTask(app, foreign, { headers: { 'x-user': 'someone-else' } });
    });

    it('sends nothing after the client closes', async () => {
      const id = await start('wait', { ms: 150 });
      const s = await listen(app, { taskIds: [id] }, { caps: TASKS });
      await s.next((f) => f.method === 'notifications/subscriptions/acknowledged');
      s.close();
      const count = s.frames.length;
      await sleep(400);
      expect((await getTask(app, id)).body.result.status).toBe('completed');
      expect(s.frames.length).toBe(count);
    });
  });
});
