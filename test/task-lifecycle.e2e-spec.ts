import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { observed } from './fixtures/fixture-tools.js';
import { call, cancelTask, getTask, TASKS, updateTask, waitForTask } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const FULL = { ...TASKS, elicitation: {}, sampling: {}, roots: {} };
const ACK = { resultType: 'complete', _meta: expect.any(Object) };

describe.each(PLATFORMS)('on %s', (platform) => {
  const fixtureApp = (options: Parameters<typeof createFixtureApp>[0] = {}, imports: unknown[] = []) =>
    createFixtureApp(options, imports, platform);

  describe.each([false, true])('task lifecycle (fastPath %s)', (fastPath) => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await fixtureApp({ fastPath });
    });
    afterAll(() => app.close());

    const start = async (name: string, args: Record<string, unknown> = {}, caps: Record<string, unknown> = FULL) => {
      const res = await call(app, name, args, { caps });
      expect(res.body.result?.resultType).toBe('task');
      return res.body.result.taskId as string;
    };

    it('CreateTaskResult is flat, stored before it is sent, with no injected content', async () => {
      // Long enough that the first read still sees it working on a loaded machine (200 ms was not).
      const res = await call(app, 'wait', { ms: 3_000 }, { caps: TASKS });
      const r = res.body.result;
      expect(Object.keys(r).sort()).toEqual([
        '_meta',
        'createdAt',
        'lastUpdatedAt',
        'pollIntervalMs',
        'resultType',
        'status',
        'taskId',
        'ttlMs',
      ]);
      expect(r).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 50 });
      expect(r.taskId).toMatch(/^[A-Za-z0-9_-]{24}$/);
      expect(r.createdAt).toMatch(ISO);
      const now = await getTask(app, r.taskId);
      expect(now.body.result).toMatchObject({ resultType: 'complete', taskId: r.taskId, status: 'working' });
      const done = await waitForTask(app, r.taskId, undefined, 20_000);
      expect(done).toMatchObject({
        status: 'completed',
        result: { resultType: 'complete', content: [{ type: 'text', text: 'waited 3000' }] },
      });
      expect(done.pollIntervalMs).toBeUndefined();
      expect(done.requestState).toBeUndefined();
    });

    it('a tool error ends completed with isError; a JSON-RPC error ends failed', async () => {
      const tool = await waitForTask(app, await start('toolFail'));
      expect(tool).toMatchObject({
        status: 'completed',
        result: { isError: true, content: [{ type: 'text', text: 'bad input, try again' }] },
      });
      expect(tool.error).toBeUndefined();
      const rpcErr = await waitForTask(app, await start('rpcFail'));
      expect(rpcErr).toMatchObject({
        status: 'failed',
        error: { code: -32001, message: 'upstream refused', data: { upstream: 'x' } },
      });
      expect(rpcErr.result).toBeUndefined();
    });

    it('an exception ends failed with -32603 and never leaks its text', async () => {
      const failed = await waitForTask(app, await start('explode'));
      expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
      expect(JSON.stringify(failed)).not.toMatch(/hunter2|password/);
      const sync = await call(app, 'explode', {});
      expect(sync.body.error).toEqual({ code: -32603, message: 'Internal error' });
      expect(sync.text).not.toMatch(/hunter2/);
    });

    it('cancel marks the task cancelled at once, fires ctx.signal, and is final and idempotent', async () => {
      const id = await start('wait', { ms: 30_000, tag: 'cancel-me' });
      const ack = await cancelTask(app, id);
      expect(ack.body.result).toEqual(ACK);
      const now = await getTask(app, id);
      expect(now.body.result.status).toBe('cancelled');
      await sleep(50);
      expect(observed.aborted.has(id)).toBe(true);
      const again = await cancelTask(app, id);
      expect(again.body.result).toEqual(ACK);
      expect((await getTask(app, id)).body.result.status).toBe('cancelled');
    });

    it('cancelling a completed task acks and leaves it completed', async () => {
      const id = await start('wait', { ms: 0 });
      await waitForTask(app, id);
      expect((await cancelTask(app, id)).body.result).toEqual(ACK);
      expect((await getTask(app, id)).body.result.status).toBe('completed');
    });

    it('input: input_required lists outstanding requests; answers resume; a key is asked once', async () => {
      const id = await start('ask');
      const waiting = await waitForTask(app, id, (s) => s === 'input_required');
      expect(waiting.inputRequests).toEqual({
        a: {
          method: 'elicitation/create',
          params: expect.objectContaining({ message: 'First?', requestedSchema: expect.any(Object) }),
        },
      });
      expect(waiting.pollIntervalMs).toBe(50);
      expect((await updateTask(app, id, { a: { action: 'accept', content: { ok: true } } })).body.result).toEqual(ACK);
      // The second ask of "a" returns the first answer; only "b" is asked next.
      const next = await waitForTask(app, id, (s) => s === 'input_required');
      expect(Object.keys(next.inputRequests)).toEqual(['b']);
      await updateTask(app, id, { b: { action: 'accept', content: { ok: false } } });
      const done = await waitForTask(app, id);
      expect(done.result.content[0].text).toBe('a=true again=true b=false');
    });

    it('partial updates leave only the unanswered keys; unknown keys are ignored', async () => {
      const id = await start('pair');
      const both = await waitForTask(app, id, (s) => s === 'input_required');
      expect(Object.keys(both.inputRequests).sort()).toEqual(['x', 'y']);
      const ack = await updateTask(app, id, { x: { action: 'accept', content: { ok: true } }, zzz: { ignored: true } });
      expect(ack.body.result).toEqual(ACK);
      const one = (await getTask(app, id)).body.result;
      expect(one.status).toBe('input_required');
      expect(Object.keys(one.inputRequests)).toEqual(['y']);
      // Answering x again changes nothing; y completes it.
      await updateTask(app, id, { x: { action: 'accept', content: { ok: false } } });
      await updateTask(app, id, { y: { action: 'decline' } });
      const done = await waitForTask(app, id);
      expect(done.result.content[0].text).toBe('x=true y=undefined');
    });

    it('an answer of the wrong shape is refused with -32602 and the task keeps waiting', async () => {
      const id = await start('pair');
      await waitForTask(app, id, (s) => s === 'input_required');
      const bad = await updateTask(app, id, { x: 12345 });
      expect(bad.body.error.code).toBe(-32602);
      const noResponses = await updateTask(app, id, null);
      expect(noResponses.body.error.code).toBe(-32602);
      expect(Object.keys((await getTask(app, id)).body.result.inputRequests).sort()).toEqual(['x', 'y']);
      await cancelTask(app, id);
    });

    it('cancel while waiting for input ends the wait', async () => {
      const id = await start('ask');
      await waitForTask(app, id, (s) => s === 'input_required');
      await cancelTask(app, id);
      const t = (await getTask(app, id)).body.result;
      expect(t.status).toBe('cancelled');
      expect(t.inputRequests).toBeUndefined();
      await updateTask(app, id, { a: { action: 'accept', content: { ok: true } } });
      expect((await getTask(app, id)).body.result.status).toBe('cancelled');
    });

    it('a task asking for input the call did not declare ends failed with -32021', async () => {
      const t = await waitForTask(app, await start('ask', {}, TASKS));
      expect(t).toMatchObject({
        status: 'failed',
        error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
      });
    });

    it('progress becomes statusMessage', async () => {
      const id = await start('progress');
      const t = await waitForTask(app, id, (s) => s === 'completed', 5000);
      expect(t.statusMessage).toBe('2/2');
      const seen = await waitForTask(app, await start('progress'), () => true);
      expect(['working', 'completed']).toContain(seen.status);
    });

    it('unknown, malformed and other-owner task ids are indistinguishable', async () => {
      for (const taskId of ['nope', 'A'.repeat(24)]) {
        const res = await getTask(app, taskId);
        expect(res.body.error).toEqual({ code: -32602, message: 'Task not found' });
        expect((await cancelTask(app, taskId)).body.error).toEqual({ code: -32602, message: 'Task not found' });
        expect((await updateTask(app, taskId, {})).body.error).toEqual({ code: -32602, message: 'Task not found' });
      }
    });
  });
});
