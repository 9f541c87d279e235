import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { TaskEventBus, type McpTasksModuleOptions } from '@mcp-tasks/nestjs';
import { createClusterApp } from '../fixtures/cluster-app.js';
import { observed } from '../fixtures/fixture-tools.js';
import { call, cancelTask, getTask, TASKS, updateTask, waitForTask } from '../support/mcp-request.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import type { ThrowawayServer } from '../support/throwaway-server.js';
import { until } from '../support/until.js';

const POLL = 1_000;
/** "A few pollIntervals", with room for a loaded 2-core machine. */
const WITHIN = 6 * POLL + 6_000;
const FULL = { ...TASKS, elicitation: {} };

/**
 * Two app instances on one PostgreSQL store, relaying over `bus`, while the broker restarts (SIGKILL): a cancel
 * and an answer sent through B during the outage, and a task finishing in it, all land within a few pollIntervals;
 * the next answer, sent once the broker is back, resumes the run on A; both buses report connected again.
 */
export function brokerRestartSuite(
  name: string,
  start: () => Promise<ThrowawayServer & { url: string }>,
  bus: (url: string) => McpTasksModuleOptions['bus'],
): void {
  describe(`${name}: two instances through a broker restart`, () => {
    let pg: TestPostgres;
    let broker: ThrowawayServer & { url: string };
    let a: INestApplication;
    let b: INestApplication;
    beforeAll(async () => {
      [pg, broker] = await Promise.all([startPostgres(), start()]);
      const options = { bus: bus(broker.url), pollInterval: POLL };
      a = await createClusterApp({ type: 'postgres', url: pg.url }, options);
      b = await createClusterApp({ type: 'postgres', url: pg.url }, options);
    }, 90_000);
    afterAll(async () => {
      await a?.close();
      await b?.close();
      await Promise.all([pg?.stop(), broker?.stop()]);
    });

    type Caps = Record<string, unknown>;
    const started = async (app: INestApplication, tool: string, args: Caps, caps: Caps = TASKS) => {
      const { body } = await call(app, tool, args, { caps });
      expect(body.result?.resultType).toBe('task');
      return body.result.taskId as string;
    };
    const connected = (app: INestApplication) => app.get<TaskEventBus>(TaskEventBus).health?.().connected;

    it('cancels, answers and final statuses sent around the outage all arrive', async () => {
      const long = await started(a, 'wait', { ms: 60_000 });
      const asked = await started(a, 'ask', {}, FULL);
      await waitForTask(b, asked, (s) => s === 'input_required', 20_000);
      const short = await started(a, 'wait', { ms: 2_000 });

      const restarted = broker.restart({ downMs: 3_000, kill: true });
      await until('the broker to be down', () => !connected(a) && !connected(b), 10_000);
      expect((await cancelTask(b, long)).body.error).toBeUndefined();
      expect((await updateTask(b, asked, { a: { action: 'accept', content: { ok: true } } })).body.error).toBe(
        undefined,
      );
      await restarted;
      const back = Date.now();

      await until('A to abort the run cancelled through B', () => observed.aborted.has(long), WITHIN);
      await until(
        'A to ask its second question',
        async () => !!(await getTask(b, asked)).body.result?.inputRequests?.b,
        WITHIN,
      );
      expect((await waitForTask(b, short, undefined, WITHIN)).status).toBe('completed');
      await until('both buses to reconnect', () => connected(a) && connected(b), WITHIN);
      await updateTask(b, asked, { b: { action: 'accept', content: { ok: false } } });
      const done = await waitForTask(b, asked, undefined, WITHIN);
      expect(done.result.content[0].text).toBe('a=true again=true b=false');
      expect((await getTask(a, long)).body.result.status).toBe('cancelled');
      expect(Date.now() - back).toBeLessThan(3 * WITHIN);
      await sleep(0);
    }, 120_000);
  });
}
