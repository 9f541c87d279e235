import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { connect, type McpTasksClient } from '@mcp-tasks/client';
import { createMcpTestClient } from '@mcp-tasks/client/testing';
import { AppModule } from '../src/app.module.js';
import { ConformanceModule } from '../src/conformance/conformance.module.js';
import { DemoModule } from '../src/demo/demo.module.js';
import { createAuthApp } from './fixtures/auth-app.js';
import { startDemo } from './support/official-client.js';
import { hs256 } from './support/tokens.js';

/**
 * The Node client (`@mcp-tasks/client`: official @modelcontextprotocol/client + ext-tasks) over
 * real HTTP. The blocks between `// README` and `// /README` are the "Client" section of README.md,
 * verbatim (the last test checks that).
 */
describe('mcp-tasks-client', () => {
  const opened: McpTasksClient[] = [];
  /** Closes every client a test opened, even when it failed before its own close. */
  const track = <T extends McpTasksClient>(c: T): T => (opened.push(c), c);
  afterAll(async () => {
    for (const c of opened) await c.close().catch(() => undefined);
  });

  describe('against the demo AppModule (pollInterval 250 ms)', () => {
    let app: INestApplication;
    let url: URL;
    beforeAll(async () => {
      ({ app, url } = await startDemo());
    });
    afterAll(async () => {
      for (const c of opened.splice(0)) await c.close().catch(() => undefined);
      await app?.close();
    });

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
      expect(done.result?.content).toEqual([
        { type: 'text', text: 'Hello, Alice! (answered before the task started)' },
      ]);
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

    it('without tasks: optional tools answer synchronously, MRTR rounds go to the handlers', async () => {
      // README: no tasks
      const client = await connect(url, {
        handlers: { elicitation: async () => ({ action: 'accept', content: { name: 'Ada' } }) },
      });
      const call = await client.callTool('slow_compute', { seconds: 0.1, label: 'now' });
      expect(call.kind).toBe('result');
      if (call.kind === 'result') expect(call.result.content).toEqual([{ type: 'text', text: 'Computed now in 0.1s' }]);
      const asked = await client.callTool('test_input_required_result_elicitation', {});
      if (asked.kind === 'result') expect(asked.result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      await client.close();
      // /README
      expect(asked.kind).toBe('result');
    });

    it.each([false, true])(
      'elicitation, sampling and roots handlers answer one MRTR round together (tasks: %s)',
      async (tasks) => {
        const client = track(
          await connect(url, {
            tasks,
            handlers: {
              elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
              sampling: (params, { key }) => ({
                model: 'stub',
                role: 'assistant',
                content: { type: 'text', text: `${key}: ${params.messages.length ? 'Paris' : '?'}` },
              }),
              roots: () => ({ roots: [{ uri: 'file:///work' }] }),
            },
          }),
        );
        const call = await client.callTool('test_input_required_result_multiple_inputs', {});
        expect(call).toMatchObject({
          kind: 'result',
          result: { content: [{ type: 'text', text: 'name=Ada; model=capital_question: Paris; roots=1' }] },
        });
      },
    );

    it('without tasks: a required tool is refused by the server, and listen is refused locally', async () => {
      const client = track(await connect(url));
      await expect(client.callTool('confirm_delete', { filename: 'x' })).rejects.toMatchObject({ code: -32021 });
      await expect(client.awaitTask({ taskId: 'any' }, { listen: true })).rejects.toThrow(
        'needs a client connected with tasks: true',
      );
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

    it('a synchronous tool through a tasks client answers { kind: "result" }', async () => {
      const client = track(await connect(url, { tasks: true }));
      const call = await client.callTool('greet', { name: 'Bob' });
      expect(call).toMatchObject({ kind: 'result', result: { content: [{ type: 'text', text: 'Hello, Bob!' }] } });
      // The official Client stays available for the rest of the protocol.
      const { tools } = await client.sdk.listTools();
      expect(tools.map((t) => t.name)).toContain('confirm_delete');
    });
  });

  describe('listening, against a fixture app with pollInterval 5000 ms', () => {
    let app: INestApplication;
    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [
          McpTasksModule.forRoot({ server: { name: 'slow-poll', version: '1' }, pollInterval: 5000 }),
          ConformanceModule,
          DemoModule,
        ],
      }).compile();
      app = moduleRef.createNestApplication({ logger: false });
    });
    afterAll(async () => {
      for (const c of opened.splice(0)) await c.close().catch(() => undefined);
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

    it('the abort signal stops waiting (the task keeps running)', async () => {
      const client = track(await createMcpTestClient(app, { tasks: true }));
      const call = await client.callTool('slow_compute', { seconds: 30 });
      if (call.kind !== 'task') throw new Error('expected a task');
      const wait = client.awaitTask(call.task, { listen: true, signal: AbortSignal.timeout(300) });
      await expect(wait).rejects.toMatchObject({ name: 'TimeoutError' });
      expect((await client.getTask(call.task.taskId)).status).toBe('working');
      await client.cancelTask(call.task.taskId);
    });

    it('createMcpTestClient reuses an app that already listens', async () => {
      const client = track(await createMcpTestClient(app));
      expect(await client.callTool('word_count', { text: 'one two three' })).toMatchObject({
        kind: 'result',
        result: { content: [{ type: 'text', text: '3 words' }] },
      });
    });
  });

  describe('Nest testing helper', () => {
    it('listens an app that is not listening yet and drives its tools', async () => {
      // README: testing helper
      const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      const client = await createMcpTestClient(app, { tasks: true });
      const call = await client.callTool('slow_compute', { seconds: 0.1, label: 'e2e' });
      if (call.kind === 'task') expect((await client.awaitTask(call.task)).status).toBe('completed');
      await client.close();
      await app.close();
      // /README
      expect(call.kind).toBe('task');
    });
  });

  describe('bearer token (fixture app with auth)', () => {
    let app: INestApplication;
    let url: URL;
    beforeAll(async () => {
      app = await createAuthApp();
      url = new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);
    });
    afterAll(async () => {
      for (const c of opened.splice(0)) await c.close().catch(() => undefined);
      await app?.close();
    });

    it('sends the token on connect, tools/call, tasks/get and the listen stream', async () => {
      const token = hs256({ sub: 'alice', scope: 'files:read' });
      // README: token
      const client = await connect(url, { tasks: true, token });
      const call = await client.callTool('read_file', { ms: 100 });
      if (call.kind === 'task') {
        const done = await client.awaitTask(call.task, { listen: true });
        expect(done.result?.content).toEqual([{ type: 'text', text: 'read by alice' }]);
      }
      await client.close();
      // /README
      expect(call.kind).toBe('task');
    });

    it('polls with the token too, and the task is the token owner’s', async () => {
      const client = track(await connect(url, { tasks: true, token: hs256({ sub: 'bob', scope: 'files:read' }) }));
      const call = await client.callTool('job', { ms: 100 });
      if (call.kind !== 'task') throw new Error('expected a task');
      expect((await client.awaitTask(call.task)).result?.content).toEqual([{ type: 'text', text: 'job done' }]);
      // Another subject cannot see bob's task: the server answers as if it did not exist.
      const carol = track(await connect(url, { tasks: true, token: hs256({ sub: 'carol', scope: 'files:read' }) }));
      await expect(carol.getTask(call.task.taskId)).rejects.toMatchObject({ code: -32602 });
    });

    it('without a token the endpoint refuses the connection (401)', async () => {
      await expect(connect(url, { tasks: true })).rejects.toThrow();
    });
  });

  it('README "Client" examples are the blocks marked // README in this file', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('\n## Client');
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    const blocks = [...section.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => lines(m[1]));
    const spec = readFileSync(new URL(import.meta.url), 'utf8');
    const marked = [...spec.matchAll(/\/\/ README: [^\n]*\n([\s\S]*?)\/\/ \/README/g)].map((m) =>
      lines(m[1]).join('\n'),
    );
    expect(marked.length).toBeGreaterThanOrEqual(8);
    // The README shows exactly the marked blocks (in its own order), plus import lines.
    const shown = blocks.map((b) => b.filter((l) => !l.startsWith('import ')).join('\n')).filter(Boolean);
    expect([...shown].sort()).toEqual([...marked].sort());
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

/** Non-empty lines without their indentation (the README un-indents what a test nests). */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
