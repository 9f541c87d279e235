import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { MemoryTaskStore, type TaskRecord } from '@mcp-tasks/nestjs';
// Internal: the open streams are only observable through it.
import { TaskListenHandler } from '../libs/mcp-tasks/src/subscriptions/task-listen.handler.js';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { CountingBus } from './support/counting-bus.js';
import { listen } from './support/listen.js';
import { call, TASKS, VERSION } from './support/mcp-request.js';
import { until } from './support/until.js';

/** A store whose reads wait at a gate while it is closed (a slow database). */
class GatedStore extends MemoryTaskStore {
  private gate?: Promise<void>;
  private release?: () => void;
  waiting = 0;
  close(): void {
    this.gate = new Promise((r) => (this.release = r));
  }
  open(): void {
    this.release?.();
    this.gate = undefined;
  }
  override async get(id: string, now: number): Promise<TaskRecord | undefined> {
    if (this.gate) {
      this.waiting++;
      await this.gate;
      this.waiting--;
    }
    return super.get(id, now);
  }
}

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('a listen never outlives its connection', () => {
  let app: INestApplication;
  const store = new GatedStore();
  const bus = new CountingBus();
  let ids: string[];
  beforeAll(async () => {
    app = await createFixtureApp({ store, bus });
    ids = [];
    for (let i = 0; i < 3; i++) ids.push((await call(app, 'wait', { ms: 60_000 }, { caps: TASKS })).body.result.taskId);
  });
  afterAll(() => app.close());

  /** Starts a listen and returns its request once the body is sent (no response awaited). */
  const startListen = (taskIds: string[]): ClientRequest => {
    const { port } = app.getHttpServer().address() as AddressInfo;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'L',
      method: 'subscriptions/listen',
      params: {
        notifications: { taskIds },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': VERSION,
          'io.modelcontextprotocol/clientCapabilities': TASKS,
        },
      },
    });
    const req = httpRequest({
      host: '127.0.0.1',
      port,
      path: '/mcp',
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': 'subscriptions/listen',
      },
    });
    req.on('error', () => undefined);
    req.end(body);
    return req;
  };

  it('clients gone while its first reads are in flight leave no subscription, timer or open stream', async () => {
    const subscribers = bus.subscribers;
    const timersBefore = timers();
    store.close();
    const reqs = Array.from({ length: 20 }, () => startListen(ids));
    await until('the listens are reading', () => store.waiting >= 20, 10_000);
    for (const req of reqs) req.destroy();
    // Let the server see the connections close before the reads finish.
    await sleep(200);
    store.open();
    await until('every subscription released', () => bus.subscribers === subscribers, 5_000).catch(() => undefined);
    expect(bus.subscribers).toBe(subscribers);
    expect(timers()).toBeLessThanOrEqual(timersBefore + 2);
    expect(app.get(TaskListenHandler).openStreams).toBe(0);
  });

  it('a client gone after the acknowledgement releases everything too', async () => {
    const subscribers = bus.subscribers;
    const s = await listen(app, { taskIds: ids }, { caps: TASKS });
    await s.next((f) => f.method === 'notifications/subscriptions/acknowledged');
    expect(bus.subscribers).toBe(subscribers + 1);
    expect(app.get(TaskListenHandler).openStreams).toBe(1);
    s.close();
    await until('released', () => bus.subscribers === subscribers && app.get(TaskListenHandler).openStreams === 0);
  });
});
