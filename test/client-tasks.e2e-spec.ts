import 'reflect-metadata';
import { describe, expect, it, jest } from '@jest/globals';
import { connect } from '@mcp-tasks/client';
import { demoClients } from './support/demo-clients.js';

/**
 * `@mcp-tasks/client` following tasks of the demo (pollInterval 250 ms) by polling: awaiting, answering
 * questions, cancelling, failing, driving by hand. Blocks between `// README` and `// /README` are shown
 * verbatim in docs/client.md's "Examples" section (test/client-readme.e2e-spec.ts checks it).
 */
describe('client: following tasks (demo, pollInterval 250 ms)', () => {
  let url!: URL;
  const track = demoClients((u) => (url = u));

  it('awaits a task by polling tasks/get', async () => {
    // README: polling
    const client = await connect(url, { tasks: true });
    const call = await client.callTool('slow_compute', { seconds: 0.3, label: 'report' });
    expect(call.kind).toBe('task');
    if (call.kind === 'task') {
      expect(call.task.status).toBe('working');
      const done = await client.awaitTask(call.task);
      expect(done.status).toBe('completed');
      expect(done.result?.content).toEqual([{ type: 'text', text: 'Computed report in 0.3s' }]);
    }
    await client.close();
    // /README
  });

  it('answers a task question with a handler (confirm_delete)', async () => {
    // README: handler
    const questions: string[] = [];
    const client = await connect(url, {
      tasks: true,
      handlers: {
        elicitation: async (params, { key, taskId }) => {
          questions.push(`${key}@${taskId}: ${params.message}`);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    });
    const call = await client.callTool('confirm_delete', { filename: 'notes.txt' });
    if (call.kind === 'task') {
      const done = await client.awaitTask(call.task);
      expect(done.result?.content).toEqual([{ type: 'text', text: 'Deleted notes.txt' }]);
      expect(questions).toEqual([`confirm@${call.task.taskId}: Delete notes.txt?`]);
    }
    await client.close();
    // /README
    expect(call.kind).toBe('task');
  });

  it('answers the MRTR round of a task tool before the task exists (test_tool_with_task)', async () => {
    const keys: [string, string | undefined][] = [];
    const client = track(
      await connect(url, {
        tasks: true,
        handlers: {
          elicitation: (_p, ctx) => (
            keys.push([ctx.key, ctx.taskId]),
            { action: 'accept', content: { name: 'Alice' } }
          ),
        },
      }),
    );
    const call = await client.callTool('test_tool_with_task', {});
    expect(call.kind).toBe('task');
    if (call.kind !== 'task') return;
    const done = await client.awaitTask(call.task);
    expect(done.result?.content).toEqual([{ type: 'text', text: 'Hello, Alice! (answered before the task started)' }]);
    // Asked once, in the request (no task id); the task reused the answer under the same key.
    expect(keys).toEqual([['user_name', undefined]]);
  });

  it('cancels a task', async () => {
    const client = track(await connect(url, { tasks: true }));
    // README: cancel
    const call = await client.callTool('slow_compute', { seconds: 30 });
    if (call.kind === 'task') {
      await client.cancelTask(call.task.taskId);
      const done = await client.awaitTask(call.task);
      expect(done.status).toBe('cancelled');
    }
    // /README
    expect(call.kind).toBe('task');
  });

  it('returns a failed task with its error (protocol_error_job)', async () => {
    const client = track(await connect(url, { tasks: true }));
    const call = await client.callTool('protocol_error_job', {});
    if (call.kind !== 'task') throw new Error(`expected a task, got ${JSON.stringify(call)}`);
    const done = await client.awaitTask(call.task, { listen: true });
    expect(done).toMatchObject({
      taskId: call.task.taskId,
      status: 'failed',
      error: { code: -32603, message: 'The job hit a protocol-level failure' },
    });
    expect(done.result).toBeUndefined();
  });

  it('drives a task step by step: getTask, updateTask, getTask', async () => {
    const handler = jest.fn(() => ({ action: 'decline' as const }));
    // The handler only declares the elicitation capability here: nothing awaits the task, so it is never called.
    const client = track(await connect(url, { tasks: true, handlers: { elicitation: handler } }));
    // README: step by step
    const call = await client.callTool('confirm_delete', { filename: 'draft.txt' });
    if (call.kind === 'task') {
      let task = await client.getTask(call.task.taskId);
      while (task.status === 'working') {
        await new Promise((resolve) => setTimeout(resolve, task.pollIntervalMs));
        task = await client.getTask(task.taskId);
      }
      expect(task.status).toBe('input_required');
      expect(task.inputRequests?.confirm).toMatchObject({
        method: 'elicitation/create',
        params: { message: 'Delete draft.txt?' },
      });
      await client.updateTask(task.taskId, { confirm: { action: 'accept', content: { confirm: true } } });
      const done = await client.awaitTask(task);
      expect(done.result?.content).toEqual([{ type: 'text', text: 'Deleted draft.txt' }]);
    }
    // /README
    expect(call.kind).toBe('task');
    expect(handler).not.toHaveBeenCalled();
  });

  it('an unknown task id rejects getTask and awaitTask with -32602', async () => {
    const client = track(await connect(url, { tasks: true }));
    await expect(client.getTask('no-such-task')).rejects.toMatchObject({ code: -32602 });
    await expect(client.awaitTask({ taskId: 'no-such-task' })).rejects.toMatchObject({ code: -32602 });
  });

  it('polling follows pollIntervalMs; while listening, polls are only a 10× fallback', async () => {
    const client = track(await connect(url, { tasks: true }));
    const gets = countRequests('tasks/get');
    try {
      const polled = await client.callTool('slow_compute', { seconds: 1 });
      if (polled.kind !== 'task') throw new Error('expected a task');
      await client.awaitTask(polled.task);
      // About one read per 250 ms over a second.
      expect(gets.count()).toBeGreaterThanOrEqual(4);

      gets.reset();
      const listened = await client.callTool('slow_compute', { seconds: 1 });
      if (listened.kind !== 'task') throw new Error('expected a task');
      expect((await client.awaitTask(listened.task, { listen: true })).status).toBe('completed');
      // The first read only; the next poll would have been due after 2500 ms.
      expect(gets.count()).toBe(1);
    } finally {
      gets.restore();
    }
  });
});

/** Counts the client's raw POSTs of one MCP method (ext-tasks' task traffic goes through global fetch). */
function countRequests(method: string): { count(): number; reset(): void; restore(): void } {
  const spy = jest.spyOn(globalThis, 'fetch');
  const isMethod = (init?: RequestInit) =>
    (init?.headers as Record<string, string> | undefined)?.['mcp-method'] === method;
  return {
    count: () => spy.mock.calls.filter(([, init]) => isMethod(init)).length,
    reset: () => spy.mockClear(),
    restore: () => spy.mockRestore(),
  };
}
