import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/client';
import {
  TaskFailedError,
  type ApplicationInputRequest,
  type ResolvedInputExchangeContext,
  type TaskOutcome,
} from '@modelcontextprotocol/ext-tasks/client';
import {
  connectLegacyClient,
  connectModernClient,
  connectTasksClient,
  startDemo,
  textOf,
  type TasksClient,
} from './support/official-client.js';

/**
 * The demo app driven over real HTTP by the official clients: @modelcontextprotocol/client 2.4.0
 * (modern 2026-07-28 and legacy 2025-11-25) and @modelcontextprotocol/ext-tasks 0.2.2.
 */
describe('official MCP clients against the demo app', () => {
  let app: INestApplication;
  let url: URL;
  const closers: (() => Promise<unknown>)[] = [];

  /** Input requests seen by a session's onInputRequest handler. */
  interface SeenInput {
    kind: ApplicationInputRequest['kind'];
    params: unknown;
    scope: ResolvedInputExchangeContext['scope'];
    delivery: ResolvedInputExchangeContext['delivery'];
    taskId?: string;
    inputId?: string;
  }

  /** A tasks session whose input handler answers every elicitation with `content`. */
  async function tasksClient(
    answer?: Record<string, string | boolean>,
  ): Promise<{ tc: TasksClient; seen: SeenInput[] }> {
    const seen: SeenInput[] = [];
    const tc = await connectTasksClient(
      url,
      answer &&
        (async (req, ctx) => {
          seen.push({
            kind: req.kind,
            params: req.params,
            scope: ctx.scope,
            delivery: ctx.delivery,
            taskId: ctx.taskId,
            inputId: ctx.inputId,
          });
          if (req.kind !== 'elicitation') throw new Error(`unexpected ${req.kind} input request`);
          return { action: 'accept', content: answer } as never;
        }),
    );
    closers.push(() => tc.close());
    return { tc, seen };
  }

  const wireDump = (tc: TasksClient) => JSON.stringify(tc.wire, null, 1);

  beforeAll(async () => {
    ({ app, url } = await startDemo());
  });

  afterAll(async () => {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await app?.close();
  });

  describe('2026-07-28 with the Tasks extension (ext-tasks session)', () => {
    it('the server advertises the Tasks extension to the modern client', async () => {
      const { tc } = await tasksClient();
      expect(tc.client.getProtocolEra()).toBe('modern');
      expect(tc.client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/tasks']);
      expect(tc.session.capabilities).toMatchObject({ execution: true, cancellation: true, inputResponses: true });
    });

    it('runs slow_compute as a task to completion', async () => {
      const { tc } = await tasksClient();
      const ex = await tc.session.callTool('slow_compute', { seconds: 0.3, label: 'x' });
      expect(ex.kind).toBe('task');
      const statuses: string[] = [];
      const { outcome } = await ex.settle({
        onEvent: (ev) => void statuses.push(ev.type === 'task' ? ev.task.status : `outcome:${ev.outcome.status}`),
      });
      expect(outcome.status).toBe('completed');
      const result = (outcome as Extract<TaskOutcome<unknown>, { status: 'completed' }>).result;
      expect(textOf(result)).toBe('Computed x in 0.3s');
      expect(statuses[statuses.length - 1]).toBe('outcome:completed');

      // The wire: tools/call created a task, tasks/get polled it with Mcp-Name = taskId.
      const create = tc.wire.find((w) => w.method === 'tools/call');
      expect(create).toMatchObject({ status: 200, mcpName: 'slow_compute' });
      expect((create?.response as { result?: { resultType?: string } } | undefined)?.result?.resultType).toBe('task');
      const gets = tc.wire.filter((w) => w.method === 'tasks/get');
      expect(gets.length).toBeGreaterThan(0);
      if (ex.kind === 'task') for (const g of gets) expect(g).toMatchObject({ status: 200, mcpName: ex.handle.taskId });
    });

    it('answers a task input request through tasks/update (confirm_delete)', async () => {
      const { tc, seen } = await tasksClient({ confirm: true });
      const ex = await tc.session.callTool('confirm_delete', { filename: 'notes.txt' });
      expect(ex.kind).toBe('task');
      const { outcome } = await ex.settle();
      expect(outcome.status).toBe('completed');
      expect(textOf((outcome as { result?: unknown }).result)).toBe('Deleted notes.txt');

      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        kind: 'elicitation',
        scope: 'task',
        delivery: 'task-update',
        inputId: 'confirm',
      });
      expect(seen[0].params).toMatchObject({ message: 'Delete notes.txt?' });
      if (ex.kind === 'task') expect(seen[0].taskId).toBe(ex.handle.taskId);

      const update = tc.wire.find((w) => w.method === 'tasks/update');
      expect(update).toBeDefined();
      expect(update?.status).toBe(200);
      expect(update?.request).toMatchObject({
        params: { inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } },
      });
      expect((update?.response as { error?: unknown } | undefined)?.error).toBeUndefined();
    });

    it('cancels a running task (slow_compute 30s → cancelled)', async () => {
      const { tc } = await tasksClient();
      const ex = await tc.session.callTool('slow_compute', { seconds: 30 });
      expect(ex.kind).toBe('task');
      await ex.cancel();
      const outcome = await ex.result();
      expect(outcome.status).toBe('cancelled');

      const cancel = tc.wire.find((w) => w.method === 'tasks/cancel');
      expect(cancel?.status).toBe(200);
      expect((cancel?.response as { error?: unknown } | undefined)?.error).toBeUndefined();
      // The server's own view agrees.
      if (ex.kind === 'task') expect((await tc.session.task(ex.handle.taskId).snapshot()).status).toBe('cancelled');
    });

    it('reports a JSON-RPC failure of a task as failed with code -32603 (protocol_error_job)', async () => {
      const { tc } = await tasksClient();
      const ex = await tc.session.callTool('protocol_error_job', {});
      expect(ex.kind).toBe('task');
      const { outcome, lastTask } = await ex.settle();
      expect(outcome.status).toBe('failed');
      const error = (outcome as Extract<TaskOutcome<unknown>, { status: 'failed' }>).error;
      expect(error).toBeInstanceOf(TaskFailedError);
      expect(error.code).toBe(-32603);
      expect(error.message).toContain('protocol-level failure');
      expect(lastTask?.status ?? 'failed').toBe('failed');
    });

    it('answers the MRTR round of test_tool_with_task, then runs the task', async () => {
      const { tc, seen } = await tasksClient({ name: 'Alice' });
      const ex = await tc.session.callTool('test_tool_with_task', {});
      const { outcome } = await ex.settle();
      expect(outcome.status).toBe('completed');
      expect(textOf((outcome as { result?: unknown }).result)).toContain('Alice');

      // The name was asked once, within the request (MRTR retry), not as a task input.
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({
        kind: 'elicitation',
        scope: 'request',
        delivery: 'request-retry',
        inputId: 'user_name',
      });
      const calls = tc.wire.filter((w) => w.method === 'tools/call');
      expect(calls.length).toBe(2);
      expect((calls[0].response as { result?: { resultType?: string } }).result?.resultType).toBe('input_required');
      expect((calls[1].response as { result?: { resultType?: string } }).result?.resultType).toBe('task');
      expect(tc.wire.some((w) => w.method === 'tasks/update')).toBe(false);
      expect(wireDump(tc)).not.toContain('"error"');
    });
  });

  describe('2026-07-28 without the Tasks extension', () => {
    it('a plain modern Client gets slow_compute as a synchronous result', async () => {
      const client: Client = await connectModernClient(url);
      closers.push(() => client.close());
      expect(client.getProtocolEra()).toBe('modern');
      const result = await client.callTool({ name: 'slow_compute', arguments: { seconds: 0.1, label: 'plain' } });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('Computed plain in 0.1s');
    });
  });

  describe('2025-11-25 legacy client', () => {
    it('initializes, lists tools and calls the sync tool greet', async () => {
      const { client } = await connectLegacyClient(url);
      closers.push(() => client.close());
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(client.getServerVersion()).toMatchObject({ name: 'mcp-tasks-demo', version: '0.1.0' });

      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['greet', 'slow_compute', 'confirm_delete', 'test_tool_with_task']));
      expect(names[0]).toBe('test_simple_text');
      const greet = tools.find((t) => t.name === 'greet');
      expect(greet?.inputSchema).toMatchObject({
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
      });

      const result = await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
      expect(result.isError).toBeFalsy();
      expect(textOf(result)).toBe('Hello, Ada!');
    });

    it('a task-only tool called without params.task is refused with -32601, as 2025-11-25 defines', async () => {
      const { client } = await connectLegacyClient(url);
      closers.push(() => client.close());
      const failure = await client.callTool({ name: 'confirm_delete', arguments: { filename: 'x' } }).then(
        (r) => ({ result: r }),
        (e: { code?: number; message?: string }) => ({ code: e.code, message: e.message }),
      );
      expect(failure).toMatchObject({
        code: -32601,
        message: expect.stringMatching(/confirm_delete requires task augmentation \(execution.taskSupport: required\)/),
      });
    });
  });
});
