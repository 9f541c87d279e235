import { describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { LocalTaskEventBus } from '../events/local-task-event.bus.js';
import { LEGACY_PROTOCOL_VERSION } from '../mcp-tasks.constants.js';
import { MemoryTaskStore } from '../store/memory/memory-task.store.js';
import type { TaskRecord } from '../store/task.record.js';
import { newTask } from '../testing/task-fixtures.js';
import type { InputDelivery } from './input-delivery.js';
import { LegacySessionStream } from './legacy-session.stream.js';

/** A bus whose follows take effect when the test says so (a LISTEN still on its way to the broker). */
class LateBus extends LocalTaskEventBus {
  readonly pending: Array<() => void> = [];
  follow(_topic: string, onActive?: () => void): () => void {
    if (onActive) this.pending.push(onActive);
    return () => undefined;
  }
}

/** The SSE messages written, parsed. */
function fakeResponse(): { res: ServerResponse; sent: Array<Record<string, any>> } {
  const sent: Array<Record<string, any>> = [];
  const res = {
    writableEnded: false,
    destroyed: false,
    writeHead: () => res,
    flushHeaders: () => undefined,
    once: () => res,
    end: () => undefined,
    write: (chunk: string) => {
      const data = /^data: (.*)$/m.exec(chunk)?.[1];
      if (data) sent.push(JSON.parse(data));
      return true;
    },
  };
  return { res: res as unknown as ServerResponse, sent };
}

const flush = () => new Promise((r) => setTimeout(r, 20));

describe('LegacySessionStream', () => {
  async function setUp() {
    const store = new MemoryTaskStore();
    const bus = new LateBus();
    const delivery = { deliver: async () => undefined, release: async () => undefined } as unknown as InputDelivery;
    const { res, sent } = fakeResponse();
    const ctx = { store, bus, delivery, pollInterval: 60_000, keepAliveMs: 60_000 };
    const stream = new LegacySessionStream(ctx, 'g1', 's1', 'k', res, () => false);
    const now = Date.now();
    // Times from the wall clock: the stream reads the store at Date.now().
    const task = (id: string): TaskRecord =>
      newTask({
        id,
        owner: 'k',
        session: 's1',
        generation: LEGACY_PROTOCOL_VERSION,
        createdAt: now,
        updatedAt: now,
        expiresAt: now + 60_000,
      });
    const create = (t: TaskRecord) => store.create(t, { maxPerOwner: 10, maxTotal: 10 });
    return { store, bus, stream, sent, task, create };
  }

  it('a task created before the follow took effect, still working, gets no status notification', async () => {
    const { bus, stream, sent, task, create } = await setUp();
    stream.open(() => undefined);
    await flush();
    await create(task('t1'));
    bus.pending.forEach((activate) => activate());
    await flush();
    expect(sent).toEqual([]);
    await stream.end();
  });

  it('one that changed meanwhile gets its new status, once, however often the follow is re-joined', async () => {
    const { bus, store, stream, sent, task, create } = await setUp();
    stream.open(() => undefined);
    await flush();
    await create(task('t1'));
    await store.update('t1', { kind: 'finish', status: 'cancelled' }, Date.now());
    for (let i = 0; i < 3; i++) {
      bus.pending.forEach((activate) => activate());
      await flush();
    }
    expect(sent.map((m) => [m.method, m.params.taskId, m.params.status])).toEqual([
      ['notifications/tasks/status', 't1', 'cancelled'],
    ]);
    await stream.end();
  });
});
