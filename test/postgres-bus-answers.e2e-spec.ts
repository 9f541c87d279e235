import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { TaskEvent } from '@mcp-tasks/nestjs';
// Internal: what `bus: { type: 'postgres' }` builds (not exported on its own).
import { PostgresTaskEventBus } from '../libs/mcp-tasks/src/events/postgres-task-event.bus.js';
import { startPostgres, type TestPostgres } from './support/postgres.js';
import { until } from './support/until.js';

const answer = (text: string): TaskEvent => ({
  type: 'question-answered',
  taskId: 'run.0',
  question: 'mcp-tasks/q.x.y',
  answer: { result: { content: { type: 'text', text } } },
});

/** Issue 39, item 1: the bus carries a question's answer whole, or says it cannot. */
describe("PostgresTaskEventBus: a question's answer", () => {
  let db: TestPostgres;
  let a: PostgresTaskEventBus;
  let b: PostgresTaskEventBus;
  beforeAll(async () => {
    db = await startPostgres();
    a = new PostgresTaskEventBus(pg, { connection: db.url });
    b = new PostgresTaskEventBus(pg, { connection: db.url });
    await a.onModuleInit();
    await b.onModuleInit();
    // B waits on the run that asked (targeted relays: only a follower hears of it).
    b.follow('run.0');
    await b.listening();
  }, 60_000);
  afterAll(async () => {
    await a?.onApplicationShutdown();
    await b?.onApplicationShutdown();
    await db?.stop();
  });

  it('reaches the other instance whole (7 000 characters)', async () => {
    const heard: TaskEvent[] = [];
    const off = b.subscribe((e) => void (e.type === 'question-answered' && heard.push(e)));
    try {
      await a.publish(answer('y'.repeat(7_000)));
      expect(await until('relayed', () => heard.length === 1 && heard)).toEqual([answer('y'.repeat(7_000))]);
    } finally {
      off();
    }
  });

  it('over 8000 bytes, or with the bus down, publish rejects saying why (task events do not)', async () => {
    const tooLarge = /^it takes \d+ bytes, over PostgreSQL's NOTIFY limit of 8000$/;
    await expect(a.publish(answer('y'.repeat(8_000)))).rejects.toThrow(tooLarge);
    const down = new PostgresTaskEventBus(pg, { connection: db.url });
    await expect(down.publish(answer('y'))).rejects.toThrow('the event bus is not connected to PostgreSQL');
    await expect(down.publish({ type: 'cancel-requested', taskId: 't' })).resolves.toBeUndefined();
  });
});
