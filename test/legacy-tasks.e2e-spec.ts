import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ElicitRequestSchema,
  TaskStatusNotificationSchema,
  type ElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { startDemo, textOf } from './support/official-client.js';
import { call, cancelTask, getTask, rpc, TASKS, updateTask } from './support/mcp-request.js';
import { legacyHeaders, post, request } from './support/legacy-wire.js';
import { listen } from './support/listen.js';
import { until } from './support/until.js';
import { codeOf, connectV1, drain, type V1Connection } from './support/v1-client.js';

const RELATED = 'io.modelcontextprotocol/related-task';
const TIMEOUT = 60_000;

/**
 * The demo app driven by the official v1 TypeScript SDK client (`@modelcontextprotocol/sdk` 1.x) as a 2025-11-25
 * client: `client.experimental.tasks.*` and `callToolStream` against the demo's fixture tools.
 */
describe('2025-11-25 tasks with the official v1 client', () => {
  let app: INestApplication;
  let url: URL;
  const open: V1Connection[] = [];

  /** A connected client; it lists the tools first (unless `listed: false`), as callToolStream needs to pick tasks. */
  const connect = async (o: Parameters<typeof connectV1>[1] & { listed?: boolean } = {}) => {
    const c = await connectV1(url, o);
    open.push(c);
    if (o.listed !== false) await c.client.listTools();
    return c;
  };
  /** A client whose elicitation handler answers with `answer(request)` and records what it was asked. */
  const asking = async (answer: (r: ElicitRequest) => Record<string, unknown>) => {
    const c = await connect({ capabilities: { elicitation: {} } });
    const asked: Array<{ request: ElicitRequest; taskId?: string; requestId: unknown }> = [];
    const statuses: string[] = [];
    c.client.setRequestHandler(ElicitRequestSchema, async (req, extra) => {
      asked.push({ request: req, taskId: extra.taskId, requestId: extra.requestId });
      return answer(req) as never;
    });
    c.client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void statuses.push(n.params.status));
    return { ...c, asked, statuses };
  };
  const tasksOf = (c: V1Connection) => c.client.experimental.tasks;

  beforeAll(async () => {
    ({ app, url } = await startDemo());
  });

  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await app?.close();
  });

  describe('session and discovery', () => {
    it('initialize advertises 2025-11-25 tasks (no 2026 extension key) and opens a sealed session', async () => {
      const c = await connect();
      expect(c.client.getServerCapabilities()).toEqual({
        tools: {},
        logging: {},
        // The demo has a prompt with completions, and resources.
        prompts: { listChanged: true },
        completions: {},
        resources: { subscribe: true, listChanged: true },
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      });
      expect(c.transport.sessionId).toMatch(/^s1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    });

    it('tools/list marks each tool with its execution.taskSupport', async () => {
      const { tools } = await (await connect()).client.listTools();
      const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
      expect(support).toMatchObject({
        greet: undefined,
        slow_compute: 'optional',
        export_project: 'optional',
        failing_job: 'required',
        protocol_error_job: 'required',
        confirm_delete: 'required',
        multi_input: 'required',
        test_tool_with_task: 'required',
      });
      expect(tools.find((t) => t.name === 'greet')).not.toHaveProperty('execution');
    });

    it('another session cannot read a task, nor list it; a tampered session id is 404', async () => {
      const a = await connect();
      const b = await connect();
      const created = await a.client.request(
        { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0.2 }, task: {} } },
        CreateTaskResultSchema,
      );
      const id = created.task.taskId;
      expect((await tasksOf(a).getTask(id)).taskId).toBe(id);
      expect(
        codeOf(
          await tasksOf(b)
            .getTask(id)
            .catch((e) => e),
        ),
      ).toBe(-32602);
      expect(
        codeOf(
          await tasksOf(b)
            .cancelTask(id)
            .catch((e) => e),
        ),
      ).toBe(-32602);
      expect((await tasksOf(b).listTasks()).tasks.map((t) => t.taskId)).not.toContain(id);
      const tampered = `${a.transport.sessionId!.slice(0, -2)}xx`;
      const res = await post(url, request('tasks/get', { taskId: id }), legacyHeaders(tampered));
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ error: { code: -32001, message: 'Session not found' } });
    });
  });

  describe('synchronous calls', () => {
    it('a sync tool, and an optional tool without params.task, run in the request (no task)', async () => {
      const c = await connect();
      const before = (await tasksOf(c).listTasks()).tasks.length;
      expect(textOf(await c.client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
      const sync = await c.client.callTool({ name: 'slow_compute', arguments: { seconds: 0.1, label: 'now' } });
      expect(textOf(sync)).toBe('Computed now in 0.1s');
      expect(sync).not.toHaveProperty('task');
      expect((await tasksOf(c).listTasks()).tasks).toHaveLength(before);
    });

    it('a required tool without params.task is -32601; params.task on a sync tool is -32601', async () => {
      // Not listed: a v1 client refuses a tool it knows to be task-only before sending anything.
      const c = await connect({ listed: false });
      const required = await c.client
        .callTool({ name: 'confirm_delete', arguments: { filename: 'x' } })
        .catch((e: unknown) => e);
      expect(required).toMatchObject({ code: -32601, message: expect.stringContaining('requires task augmentation') });
      const forbidden = await c.client
        .request(
          { method: 'tools/call', params: { name: 'greet', arguments: { name: 'x' }, task: {} } },
          CreateTaskResultSchema,
        )
        .catch((e: unknown) => e);
      expect(forbidden).toMatchObject({ code: -32601, message: expect.stringContaining('does not support task') });
    });
  });

  describe('tasks', () => {
    it(
      'callToolStream: created at once in the full 2025-11-25 shape, polled, then the result tied to the task',
      async () => {
        const c = await connect();
        const messages = await drain(
          tasksOf(c).callToolStream(
            { name: 'slow_compute', arguments: { seconds: 0.5, label: 'x' } },
            CallToolResultSchema,
            { task: { ttl: 30_000 } },
          ),
        );
        const [created, ...rest] = messages;
        expect(created).toMatchObject({
          type: 'taskCreated',
          task: { status: 'working', ttl: 30_000, pollInterval: 250 },
        });
        const task = (created as unknown as { task: Record<string, string> }).task;
        expect(new Date(task.createdAt).toISOString()).toBe(task.createdAt);
        expect(task.lastUpdatedAt).toBe(task.createdAt);
        expect(rest.some((m) => m.type === 'taskStatus')).toBe(true);
        const result = rest.at(-1) as { type: string; result: Record<string, any> };
        expect(result.type).toBe('result');
        expect(textOf(result.result)).toBe('Computed x in 0.5s');
        expect(result.result._meta[RELATED]).toEqual({ taskId: task.taskId });
      },
      TIMEOUT,
    );

    it("the client's ttl is honoured up to the server's (1 h), and never under a second", async () => {
      const c = await connect();
      const create = async (ttl: number) =>
        (
          await c.client.request(
            { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0 }, task: { ttl } } },
            CreateTaskResultSchema,
          )
        ).task.ttl;
      expect(await create(1e10)).toBe(3_600_000);
      expect(await create(10)).toBe(1_000);
      expect(await create(120_000)).toBe(120_000);
    });

    it(
      'the task exists when the handle arrives; tasks/result blocks until it is terminal',
      async () => {
        const c = await connect();
        const { task } = await c.client.request(
          { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 1 }, task: {} } },
          CreateTaskResultSchema,
        );
        expect((await tasksOf(c).getTask(task.taskId)).status).toBe('working');
        let answered = false;
        const result = tasksOf(c)
          .getTaskResult(task.taskId, CallToolResultSchema, { timeout: TIMEOUT })
          .then((r) => ((answered = true), r));
        const seen: string[] = [];
        await until('the task completes', async () => {
          const { status } = await tasksOf(c).getTask(task.taskId);
          // Whenever the task still ran, tasks/result had not answered.
          if (status === 'working') expect(answered).toBe(false);
          seen.push(status);
          return status === 'completed';
        });
        expect(seen).toContain('working');
        expect(textOf(await result)).toBe('Computed result in 1s');
      },
      TIMEOUT,
    );

    it('tasks/cancel answers the cancelled task; again is -32602; tasks/result is an error', async () => {
      const c = await connect();
      const { task } = await c.client.request(
        { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 60 }, task: {} } },
        CreateTaskResultSchema,
      );
      const cancelled = await tasksOf(c).cancelTask(task.taskId);
      expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled', ttl: 3_600_000 });
      expect(cancelled).not.toHaveProperty('pollInterval');
      expect((await tasksOf(c).getTask(task.taskId)).status).toBe('cancelled');
      expect(
        await tasksOf(c)
          .cancelTask(task.taskId)
          .catch((e: unknown) => e),
      ).toMatchObject({
        code: -32602,
        message: expect.stringContaining("already in terminal status 'cancelled'"),
      });
      expect(
        await tasksOf(c)
          .getTaskResult(task.taskId, CallToolResultSchema)
          .catch((e: unknown) => e),
      ).toMatchObject({
        code: -32603,
        message: expect.stringContaining(`Task ${task.taskId} was cancelled`),
      });
    });

    it(
      "tasks/list: the caller's own tasks, newest first, 50 a page, then nextCursor; bad cursors are -32602",
      async () => {
        const c = await connect();
        const created: string[] = [];
        for (let i = 0; i < 55; i++) {
          const { task } = await c.client.request(
            { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 0 }, task: {} } },
            CreateTaskResultSchema,
          );
          created.push(task.taskId);
        }
        const first = await tasksOf(c).listTasks();
        expect(first.tasks).toHaveLength(50);
        expect(first.nextCursor).toEqual(expect.any(String));
        const second = await tasksOf(c).listTasks(first.nextCursor);
        const all = [...first.tasks, ...second.tasks];
        const ids = all.map((t) => t.taskId);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids).toEqual(expect.arrayContaining(created));
        const order = all.map((t) => [t.createdAt, t.taskId].join(' '));
        expect(order).toEqual([...order].sort().reverse());
        const other = await connect();
        expect(
          codeOf(
            await tasksOf(other)
              .listTasks(first.nextCursor)
              .catch((e) => e),
          ),
        ).toBe(-32602);
        expect(
          codeOf(
            await tasksOf(c)
              .listTasks(`${first.nextCursor}x`)
              .catch((e) => e),
          ),
        ).toBe(-32602);
      },
      TIMEOUT,
    );

    it(
      "a tool's isError result ends the task failed (with its text); tasks/result still returns the result",
      async () => {
        const c = await connect();
        const messages = await drain(
          tasksOf(c).callToolStream({ name: 'failing_job', arguments: {} }, CallToolResultSchema),
        );
        expect(messages[0].type).toBe('taskCreated');
        const last = messages.at(-1) as { type: string; error: Error };
        expect(last.type).toBe('error');
        const id = (messages[0] as { task: { taskId: string } }).task.taskId;
        expect(last.error.message).toContain(`Task ${id} failed`);
        const status = messages.filter((m) => m.type === 'taskStatus').at(-1) as { task: Record<string, unknown> };
        expect(status.task).toMatchObject({
          status: 'failed',
          statusMessage: 'The job failed: the input could not be processed',
        });
        const result = await tasksOf(c).getTaskResult(id, CallToolResultSchema);
        expect(result).toMatchObject({ isError: true, _meta: { [RELATED]: { taskId: id } } });
        expect(textOf(result)).toBe('The job failed: the input could not be processed');
      },
      TIMEOUT,
    );

    it(
      'a JSON-RPC error ends the task failed; tasks/result answers that same error',
      async () => {
        const c = await connect();
        const messages = await drain(
          tasksOf(c).callToolStream({ name: 'protocol_error_job', arguments: {} }, CallToolResultSchema),
        );
        const id = (messages[0] as { task: { taskId: string } }).task.taskId;
        expect(await tasksOf(c).getTask(id)).toMatchObject({
          status: 'failed',
          statusMessage: 'The job hit a protocol-level failure',
        });
        expect(
          await tasksOf(c)
            .getTaskResult(id, CallToolResultSchema)
            .catch((e: unknown) => e),
        ).toMatchObject({
          code: -32603,
          message: expect.stringContaining('The job hit a protocol-level failure'),
        });
      },
      TIMEOUT,
    );
  });

  describe('input inside a task', () => {
    it(
      'an elicitation arrives as a real request tied to the task, once; the answer resumes the tool',
      async () => {
        const c = await asking(() => ({ action: 'accept', content: { confirm: true } }));
        const messages = await drain(
          tasksOf(c).callToolStream(
            { name: 'confirm_delete', arguments: { filename: 'a.txt' } },
            CallToolResultSchema,
            { timeout: TIMEOUT },
          ),
        );
        const id = (messages[0] as { task: { taskId: string } }).task.taskId;
        expect(textOf((messages.at(-1) as { result: unknown }).result)).toBe('Deleted a.txt');
        expect(c.asked).toHaveLength(1);
        expect(c.asked[0].taskId).toBe(id);
        expect(c.asked[0].request.params).toMatchObject({
          mode: 'form',
          message: 'Delete a.txt?',
          _meta: { [RELATED]: { taskId: id } },
        });
        expect(c.statuses).toContain('input_required');
      },
      TIMEOUT,
    );

    it(
      'a declined elicitation reaches the tool as declined',
      async () => {
        const c = await asking(() => ({ action: 'decline' }));
        const messages = await drain(
          tasksOf(c).callToolStream(
            { name: 'confirm_delete', arguments: { filename: 'b.txt' } },
            CallToolResultSchema,
            { timeout: TIMEOUT },
          ),
        );
        expect(textOf((messages.at(-1) as { result: unknown }).result)).toBe('Kept b.txt');
      },
      TIMEOUT,
    );

    it(
      'two questions at once: two requests with their own ids, both answered',
      async () => {
        const c = await asking((r) =>
          r.params.message.includes('name')
            ? { action: 'accept', content: { name: 'Ada' } }
            : { action: 'accept', content: { confirm: true } },
        );
        const messages = await drain(
          tasksOf(c).callToolStream({ name: 'multi_input', arguments: {} }, CallToolResultSchema, { timeout: TIMEOUT }),
        );
        expect(textOf((messages.at(-1) as { result: unknown }).result)).toBe('Hello, Ada; confirmed: true');
        expect(c.asked).toHaveLength(2);
        expect(c.asked[0].requestId).not.toEqual(c.asked[1].requestId);
      },
      TIMEOUT,
    );

    it(
      "a tool's prepare step asks inside the task (2025-11-25 has no request-time round)",
      async () => {
        const c = await asking(() => ({ action: 'accept', content: { name: 'Grace' } }));
        const messages = await drain(
          tasksOf(c).callToolStream({ name: 'test_tool_with_task', arguments: {} }, CallToolResultSchema, {
            timeout: TIMEOUT,
          }),
        );
        const id = (messages[0] as { task: { taskId: string } }).task.taskId;
        expect(textOf((messages.at(-1) as { result: unknown }).result)).toContain('Hello, Grace!');
        expect(c.asked).toHaveLength(1);
        expect(c.asked[0].taskId).toBe(id);
      },
      TIMEOUT,
    );

    it(
      'a session without the elicitation capability: the task fails with -32600 naming it',
      async () => {
        const c = await connect();
        const { task } = await c.client.request(
          { method: 'tools/call', params: { name: 'confirm_delete', arguments: { filename: 'c.txt' }, task: {} } },
          CreateTaskResultSchema,
        );
        const failed = await until('the task fails', async () => {
          const t = await tasksOf(c).getTask(task.taskId);
          return t.status === 'failed' ? t : undefined;
        });
        expect(failed.statusMessage).toContain('"elicitation"');
        expect(
          codeOf(
            await tasksOf(c)
              .getTaskResult(task.taskId, CallToolResultSchema)
              .catch((e) => e),
          ),
        ).toBe(-32600);
      },
      TIMEOUT,
    );
  });

  describe('across generations (no auth: one host owner; a 2025-11-25 session is an owner of its own)', () => {
    it(
      "a 2026-07-28 task is the host owner's: a 2025-11-25 session reads it shaped as 2025-11-25 and cancels it",
      async () => {
        const c = await connect();
        const failed = (await call(app, 'failing_job', {}, { caps: TASKS })).body.result.taskId as string;
        await until('the 2026 task ends', async () => (await getTask(app, failed)).body.result.status !== 'working');
        // One stored outcome, two shapes: 2026-07-28 says completed with an error result, 2025-11-25 failed.
        expect((await getTask(app, failed)).body.result).toMatchObject({
          status: 'completed',
          result: { isError: true },
        });
        const seen = await tasksOf(c).getTask(failed);
        expect(seen).toMatchObject({ taskId: failed, status: 'failed', ttl: 3_600_000 });
        expect(seen.statusMessage).toBe('The job failed: the input could not be processed');
        expect(await tasksOf(c).getTaskResult(failed, CallToolResultSchema)).toMatchObject({ isError: true });
        const running = (await call(app, 'slow_compute', { seconds: 60 }, { caps: TASKS })).body.result.taskId;
        expect((await tasksOf(c).listTasks()).tasks.map((t) => t.taskId)).toEqual(
          expect.arrayContaining([failed, running]),
        );
        expect(await tasksOf(c).cancelTask(running)).toMatchObject({ status: 'cancelled' });
        expect((await getTask(app, running)).body.result.status).toBe('cancelled');
      },
      TIMEOUT,
    );

    it(
      "a session's 2025-11-25 task is that session's: 2026-07-28 requests (no session) get exactly 'Task not found'",
      async () => {
        const c = await connect();
        const { task } = await c.client.request(
          { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 60 }, task: {} } },
          CreateTaskResultSchema,
        );
        const unknown = (await getTask(app, 'no-such-task-anywhere')).body.error;
        expect((await getTask(app, task.taskId)).body.error).toEqual(unknown);
        expect((await cancelTask(app, task.taskId)).body.error).toEqual(unknown);
        expect((await updateTask(app, task.taskId, {})).body.error).toEqual(unknown);
        const stream = await listen(app, { taskIds: [task.taskId] }, { caps: TASKS });
        const ack = await stream.next((f) => f.method === 'notifications/subscriptions/acknowledged');
        stream.close();
        expect(ack.params.notifications.taskIds).toEqual([]);
        expect((await tasksOf(c).getTask(task.taskId)).status).toBe('working');
        await tasksOf(c).cancelTask(task.taskId);
      },
      TIMEOUT,
    );

    it(
      'a 2025-11-25 task made without a session is bound to none: 2026-07-28 reads it, shaped as 2026-07-28',
      async () => {
        const res = await post(url, request('tools/call', { name: 'failing_job', arguments: {}, task: {} }));
        const id = res.body.result.task.taskId as string;
        await until('it ends', async () => (await getTask(app, id)).body.result?.status === 'completed');
        expect((await getTask(app, id)).body.result).toMatchObject({
          status: 'completed',
          result: { isError: true, resultType: 'complete' },
        });
        const viaLegacy = await post(url, request('tasks/get', { taskId: id }));
        expect(viaLegacy.body.result).toMatchObject({ status: 'failed' });
        // A session of the same host owner sees it too (it is bound to no session).
        expect((await tasksOf(await connect()).getTask(id)).status).toBe('failed');
        expect((await rpc(app, 'tasks/get', { taskId: id }, { caps: TASKS })).status).toBe(200);
      },
      TIMEOUT,
    );
  });
});
