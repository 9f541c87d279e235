import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createClusterApp } from './fixtures/cluster-app.js';
import { listen } from './support/listen.js';
import { call, TASKS, updateTask, waitForTask } from './support/mcp-request.js';
import { startRedis, type TestRedis } from './support/redis.js';

const POLL = 500;

/**
 * Two instances sharing a Redis store and NO bus: nothing tells B that A's task changed, so a listen on B can only
 * learn it by re-reading the store — which an open listen does every pollInterval for its unfinished tasks.
 */
describe('a listen re-reads its tasks every pollInterval (the bus is only a hint)', () => {
  let redis: TestRedis;
  let a: INestApplication;
  let b: INestApplication;
  beforeAll(async () => {
    redis = await startRedis();
    const store = { type: 'redis' as const, url: redis.url };
    [a, b] = await Promise.all([
      createClusterApp(store, { pollInterval: POLL }),
      createClusterApp(store, { pollInterval: POLL }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.stop();
  });

  it('a new question of a task still input_required on A reaches a listen on B without any bus', async () => {
    const full = { ...TASKS, elicitation: {} };
    const id = (await call(a, 'ask', {}, { caps: full })).body.result.taskId as string;
    await waitForTask(a, id, (st) => st === 'input_required', 10_000);
    const s = await listen(b, { taskIds: [id] }, { caps: TASKS, id: 'asks' });
    try {
      await s.next((f) => f.method === 'notifications/subscriptions/acknowledged', 10_000);
      await updateTask(a, id, { a: { action: 'accept', content: { ok: true } } });
      // The status stays input_required; only the question changes (a answered, b asked).
      const next = await s.next((f) => f.method === 'notifications/tasks' && !!f.params.inputRequests?.b, 15_000);
      expect(next.params.status).toBe('input_required');
      expect(Object.keys(next.params.inputRequests)).toEqual(['b']);
    } finally {
      s.close();
    }
  });

  it('a task finishing on A reaches a listen on B without any bus', async () => {
    const id = (await call(a, 'wait', { ms: 1_500 }, { caps: TASKS })).body.result.taskId as string;
    const s = await listen(b, { taskIds: [id] }, { caps: TASKS, id: 'no-bus' });
    try {
      await s.next((f) => f.method === 'notifications/subscriptions/acknowledged', 10_000);
      // 1.5 s of work, then at most a pollInterval, with room for a loaded machine.
      const done = await s.next((f) => f.method === 'notifications/tasks' && f.params.status === 'completed', 15_000);
      expect(done.params.taskId).toBe(id);
      expect(done.params.result.content[0].text).toBe('waited 1500');
      expect(done.params._meta['io.modelcontextprotocol/subscriptionId']).toBe('no-bus');
    } finally {
      s.close();
    }
  });
});
