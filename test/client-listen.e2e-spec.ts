import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import type { McpTask, McpTasksClient } from '@mcp-tasks/client';
import { createMcpTestClient } from '@mcp-tasks/client/testing';
import { ConformanceModule } from '../src/conformance/conformance.module.js';
import { DemoModule } from '../src/demo/demo.module.js';

/**
 * `awaitTask({ listen: true })` against a server whose poll hint is 5 s: anything that ends a wait sooner
 * came from `notifications/tasks`.
 */
describe('client: listening (fixture app, pollInterval 5000 ms)', () => {
  let app: INestApplication;
  const opened: McpTasksClient[] = [];
  const track = <T extends McpTasksClient>(c: T): T => (opened.push(c), c);
  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpTasksModule.forRoot({ server: { name: 'slow-poll', version: '1' }, pollInterval: 5000, isGlobal: true }),
        ConformanceModule,
        DemoModule,
      ],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
  });
  afterAll(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
    await app?.close();
  });

  it('awaitTask({ listen: true }) ends on the notification, long before a poll could', async () => {
    const client = track(await createMcpTestClient(app, { tasks: true }));
    // README: listening
    const started = Date.now();
    const call = await client.callTool('slow_compute', { seconds: 0.3, label: 'fast' });
    if (call.kind === 'task') {
      expect(call.task.pollIntervalMs).toBe(5000);
      const done = await client.awaitTask(call.task, { listen: true });
      expect(done.result?.content).toEqual([{ type: 'text', text: 'Computed fast in 0.3s' }]);
    }
    // A poll would have come at 5000 ms (the fallback poll at 50 s): notifications/tasks ended the wait.
    expect(Date.now() - started).toBeLessThan(2500);
    // /README
    expect(call.kind).toBe('task');
  });

  it('with listen, a question is answered and the answer resumes the task without polls', async () => {
    const client = track(
      await createMcpTestClient(app, {
        tasks: true,
        handlers: { elicitation: () => ({ action: 'accept', content: { confirm: true } }) },
      }),
    );
    const started = Date.now();
    const call = await client.callTool('confirm_delete', { filename: 'a.txt' });
    if (call.kind !== 'task') throw new Error('expected a task');
    const done = await client.awaitTask(call.task, { listen: true });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Deleted a.txt' }]);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('onUpdate in listen mode: notified states arrive, the question with its request, long before a poll', async () => {
    const client = track(
      await createMcpTestClient(app, {
        tasks: true,
        handlers: { elicitation: () => ({ action: 'accept', content: { confirm: true } }) },
      }),
    );
    const started = Date.now();
    const call = await client.callTool('confirm_delete', { filename: 'b.txt' });
    if (call.kind !== 'task') throw new Error('expected a task');
    const seen: McpTask[] = [];
    const done = await client.awaitTask(call.task, { listen: true, onUpdate: (t) => void seen.push(t) });
    expect(Date.now() - started).toBeLessThan(2500);
    expect(done.status).toBe('completed');
    const statuses = seen.map((t) => t.status);
    expect(statuses.at(-1)).toBe('completed');
    expect(statuses.filter((s, i) => s === statuses[i - 1])).toEqual([]);
    const asked = seen.find((t) => t.status === 'input_required');
    expect(asked?.inputRequests?.confirm).toMatchObject({
      method: 'elicitation/create',
      params: { message: 'Delete b.txt?' },
    });
    // The server's poll hint, not the slowed one the listening client polls at.
    expect(seen[0].pollIntervalMs).toBe(5000);
  });

  it('answer: false with listen: an observer sees another client answer and the end, without polls', async () => {
    const observer = track(await createMcpTestClient(app, { tasks: true }));
    // The owner declares elicitation (so the tool may ask) but does not await: it answers by hand below.
    const owner = track(
      await createMcpTestClient(app, { tasks: true, handlers: { elicitation: () => ({ action: 'decline' }) } }),
    );
    const call = await owner.callTool('confirm_delete', { filename: 'c.txt' });
    if (call.kind !== 'task') throw new Error('expected a task');
    const seen: McpTask[] = [];
    let started = 0;
    const watching = observer.awaitTask(call.task, {
      listen: true,
      answer: false,
      onUpdate: (t) => {
        seen.push(t);
        if (t.status === 'input_required' && !started) {
          started = Date.now();
          void owner.updateTask(t.taskId, { confirm: { action: 'accept', content: { confirm: true } } });
        }
      },
    });
    // The first read may come before the task asks; then the question arrives by notification.
    const done = await watching;
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Deleted c.txt' }]);
    expect(started).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(seen.map((t) => t.status).at(-1)).toBe('completed');
  });

  it('the abort signal stops waiting (the task keeps running)', async () => {
    const client = track(await createMcpTestClient(app, { tasks: true }));
    const call = await client.callTool('slow_compute', { seconds: 30 });
    if (call.kind !== 'task') throw new Error('expected a task');
    const wait = client.awaitTask(call.task, { listen: true, signal: AbortSignal.timeout(300) });
    await expect(wait).rejects.toMatchObject({ name: 'TimeoutError' });
    expect((await client.getTask(call.task.taskId)).status).toBe('working');
    await client.cancelTask(call.task.taskId);
  });
});
