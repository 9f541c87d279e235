import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { connect, McpTaskError, type McpTask, type McpTasksClient } from '@mcp-tasks/client';
import { startDemo } from './support/official-client.js';

/** What makes two states of a task different for `onUpdate`. */
const stateKey = (t: McpTask) =>
  JSON.stringify([t.status, t.statusMessage ?? null, Object.keys(t.inputRequests ?? {}).sort()]);

/** The states a listener saw are distinct from one state to the next and end in the final one. */
function expectDistinctStates(seen: McpTask[], final: McpTask['status']): void {
  const keys = seen.map(stateKey);
  expect(keys.filter((k, i) => k === keys[i - 1])).toEqual([]);
  expect(seen.at(-1)?.status).toBe(final);
  expect(seen.slice(0, -1).every((t) => t.status === 'working' || t.status === 'input_required')).toBe(true);
}

/** Polls `getTask` until the task is terminal (20 s at most). */
async function settled(client: McpTasksClient, taskId: string): Promise<McpTask> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const task = await client.getTask(taskId);
    if (!['working', 'input_required'].includes(task.status) || Date.now() > deadline) return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** `onUpdate` on `awaitTask` and `runTool`, and following without answering (`answer: false`), by polling. */
describe('client: task updates (demo, pollInterval 250 ms)', () => {
  let app: INestApplication;
  let url: URL;
  let client: McpTasksClient;
  beforeAll(async () => {
    ({ app, url } = await startDemo());
    client = await connect(url, {
      tasks: true,
      handlers: { elicitation: () => ({ action: 'accept', content: { confirm: true } }) },
    });
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  it('awaitTask({ onUpdate }) sees each progress message of a task once, in order', async () => {
    // README: onUpdate
    const seen: string[] = [];
    const call = await client.callTool('export_project', { project: 'demo', files: 4, delayMs: 900 });
    if (call.kind === 'task') {
      const done = await client.awaitTask(call.task, {
        onUpdate: (task) => void seen.push(`${task.status}: ${task.statusMessage ?? '-'}`),
      });
      expect(done.status).toBe('completed');
      expect(seen.at(-1)).toBe('completed: exporting demo (4/4)');
    }
    // seen: ['working: -', 'working: exporting demo (1/4)', …, 'completed: exporting demo (4/4)']
    // /README
    expect(call.kind).toBe('task');
    expect(new Set(seen).size).toBe(seen.length);
    const counts = seen
      .map((s) => /\((\d)\/4\)$/.exec(s)?.[1])
      .filter(Boolean)
      .map(Number);
    // A step lasts 900 ms and a poll comes every 250 ms: several steps are seen (even on a loaded
    // machine), always in order.
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
  });

  it('onUpdate sees an input_required state with its request, then the end', async () => {
    const seen: McpTask[] = [];
    const call = await client.callTool('confirm_delete', { filename: 'seen.txt' });
    if (call.kind !== 'task') throw new Error('expected a task');
    const done = await client.awaitTask(call.task, { onUpdate: (t) => void seen.push(t) });
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Deleted seen.txt' }]);
    expectDistinctStates(seen, 'completed');
    const asked = seen.find((t) => t.status === 'input_required');
    expect(asked?.inputRequests).toEqual({
      confirm: {
        method: 'elicitation/create',
        params: expect.objectContaining({ message: 'Delete seen.txt?', requestedSchema: expect.any(Object) }),
      },
    });
    expect(seen.every((t) => t.taskId === call.task.taskId)).toBe(true);
  });

  it('an onUpdate that throws rejects the wait; the task keeps running', async () => {
    const call = await client.callTool('slow_compute', { seconds: 5 });
    if (call.kind !== 'task') throw new Error('expected a task');
    const wait = client.awaitTask(call.task, {
      onUpdate: () => {
        throw new Error('listener broke');
      },
    });
    await expect(wait).rejects.toThrow('listener broke');
    expect((await client.getTask(call.task.taskId)).status).toBe('working');
    await client.cancelTask(call.task.taskId);
  });

  it('runTool returns the result in one step; onUpdate sees the task as created first', async () => {
    // README: runTool
    const seen: McpTask[] = [];
    const result = await client.runTool(
      'export_project',
      { project: 'site', files: 2, delayMs: 300 },
      { onUpdate: (task) => void seen.push(task) },
    );
    expect(result.content).toEqual([{ type: 'text', text: 'Exported 2 of 2 files of site.' }]);
    expect(seen[0].status).toBe('working');
    expect(seen.at(-1)?.status).toBe('completed');
    // /README
    expectDistinctStates(seen, 'completed');
    expect(new Set(seen.map((t) => t.taskId)).size).toBe(1);
  });

  it('runTool of a synchronous tool answers without updates', async () => {
    const seen: McpTask[] = [];
    const result = await client.runTool('greet', { name: 'Ann' }, { onUpdate: (t) => void seen.push(t) });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ann!' }]);
    expect(seen).toEqual([]);
  });

  it('runTool rejects with McpTaskError when the task fails', async () => {
    const run = client.runTool('protocol_error_job');
    await expect(run).rejects.toBeInstanceOf(McpTaskError);
    await expect(run).rejects.toMatchObject({
      code: -32603,
      message: 'The job hit a protocol-level failure',
      task: { status: 'failed' },
    });
  });

  it('runTool rejects with McpTaskError when the task is cancelled by someone else', async () => {
    let taskId = '';
    const run = client.runTool('slow_compute', { seconds: 30 }, { onUpdate: (t) => void (taskId = t.taskId) });
    const expectation = expect(run).rejects.toMatchObject({ name: 'McpTaskError', task: { status: 'cancelled' } });
    await waitFor(() => taskId !== '');
    await client.cancelTask(taskId);
    await expectation;
  });

  it('aborting runTool cancels its task on the server', async () => {
    let taskId = '';
    const run = client.runTool(
      'slow_compute',
      { seconds: 30 },
      { onUpdate: (t) => void (taskId = t.taskId), signal: AbortSignal.timeout(600) },
    );
    await expect(run).rejects.toMatchObject({ name: 'TimeoutError' });
    expect((await settled(client, taskId)).status).toBe('cancelled');
  });

  it('answer: false only observes: the question is left for another client', async () => {
    const call = await client.callTool('confirm_delete', { filename: 'left.txt' });
    if (call.kind !== 'task') throw new Error('expected a task');
    const seen: McpTask[] = [];
    let answered = false;
    const observing = client.awaitTask(call.task, {
      answer: false,
      onUpdate: (t) => {
        seen.push(t);
        if (t.status === 'input_required' && !answered) {
          answered = true;
          // Another party answers while the observer waits (here the same client, by hand).
          void client.updateTask(t.taskId, { confirm: { action: 'accept', content: { confirm: false } } });
        }
      },
    });
    const done = await observing;
    // The handler (which answers confirm: true) was not used: the answer given by hand decided.
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Kept left.txt' }]);
    expectDistinctStates(seen, 'completed');
    expect(seen.some((t) => t.status === 'input_required' && t.inputRequests?.confirm)).toBe(true);
  });
});

async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
