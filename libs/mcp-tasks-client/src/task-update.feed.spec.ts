import { describe, expect, it } from '@jest/globals';
import type { McpTask } from './mcp-task.interface.js';
import { TaskUpdateFeed } from './task-update.feed.js';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
const task = (s: number, fields: Partial<McpTask>): McpTask => ({
  taskId: 't',
  status: 'working',
  createdAt: at(0),
  lastUpdatedAt: at(s),
  ttlMs: null,
  ...fields,
});

describe('TaskUpdateFeed', () => {
  it('hands over each distinct state once, in order, and nothing after a terminal one', async () => {
    const seen: string[] = [];
    const feed = new TaskUpdateFeed((t) => void seen.push(`${t.status}|${t.statusMessage ?? ''}`));
    await feed.offer(task(1, {}));
    await feed.offer(task(2, { pollIntervalMs: 9 })); // same state, other fields moved
    await feed.offer(task(3, { statusMessage: 'a (1/2)' }));
    await feed.offer(task(2, { statusMessage: 'stale' })); // older than the last one handed over
    await feed.offer(task(4, { status: 'input_required', inputRequests: { k: { method: 'roots/list' } } }));
    await feed.offer(task(4, { status: 'input_required', inputRequests: { k: { method: 'roots/list' } } }));
    await feed.offer(
      task(5, {
        status: 'input_required',
        inputRequests: { k: { method: 'roots/list' }, j: { method: 'roots/list' } },
      }),
    );
    await feed.offer(task(6, { status: 'completed' }));
    await feed.offer(task(7, { status: 'failed' }));
    expect(seen).toEqual(['working|', 'working|a (1/2)', 'input_required|', 'input_required|', 'completed|']);
  });

  it('awaits the listener and lets its error through', async () => {
    const order: string[] = [];
    const feed = new TaskUpdateFeed(async (t) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      order.push(t.status);
      if (t.status === 'failed') throw new Error('listener broke');
    });
    await feed.offer(task(1, {}));
    order.push('after working');
    await expect(feed.offer(task(2, { status: 'failed' }))).rejects.toThrow('listener broke');
    expect(order).toEqual(['working', 'after working', 'failed']);
  });

  it('without a listener does nothing', async () => {
    await expect(new TaskUpdateFeed().offer(task(1, {}))).resolves.toBeUndefined();
  });
});
