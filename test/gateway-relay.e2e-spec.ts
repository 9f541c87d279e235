import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createGatewayApp } from './fixtures/gateway-app.js';
import { startScriptedUpstream, type ScriptedUpstream } from './fixtures/scripted-upstream.js';
import { call, cancelTask, getTask, TASKS, updateTask } from './support/mcp-request.js';
import { until } from './support/until.js';

const ASKS = { ...TASKS, elicitation: {} };
const ask = (message: string) => ({ method: 'elicitation/create', params: { mode: 'form', message } });
const yes = { action: 'accept', content: { ok: true } };

/** Against an upstream that answers from a script and records what the gateway sends it. */
describe('gateway: what reaches an upstream that does not listen', () => {
  let upstream: ScriptedUpstream;
  let gateway: INestApplication;
  const sent = (method: string) => upstream.requests.filter((r) => r.method === method);
  const statusOf = async (id: string) => (await getTask(gateway, id)).body.result?.status;

  beforeAll(async () => {
    upstream = await startScriptedUpstream(300);
    gateway = await createGatewayApp([{ name: 'scripted', url: upstream.url }]);
    await until(
      'listed',
      async () => (await call(gateway, 'scripted_job', {}, { caps: {} })).body.error?.code !== -32602,
    );
  });
  afterAll(async () => {
    await gateway?.close();
    await upstream?.close();
  });

  it('the mirror polls at the upstream pollIntervalMs when it cannot listen', async () => {
    upstream.task = { status: 'working', statusMessage: 'busy' };
    const id = (await call(gateway, 'scripted_job', {}, { caps: TASKS })).body.result.taskId;
    const from = sent('tasks/get').length;
    await until('four more polls', () => sent('tasks/get').length >= from + 4, 10_000);
    const polls = sent('tasks/get').slice(from);
    const gaps = polls.slice(1).map((p, i) => p.at - polls[i].at);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(280);
    expect(sent('subscriptions/listen').length).toBeGreaterThan(0);
    expect((await getTask(gateway, id)).body.result.statusMessage).toBe('busy');
    upstream.task = { status: 'completed', result: { content: [{ type: 'text', text: 'ok' }] } };
    await until('completed', async () => (await statusOf(id)) === 'completed');
  });

  it('tasks/update passes on only the answers to outstanding keys, each once', async () => {
    upstream.task = { status: 'input_required', inputRequests: { a: ask('A?'), b: ask('B?') } };
    const id = (await call(gateway, 'scripted_job', {}, { caps: ASKS })).body.result.taskId;
    await until('asked', async () => (await statusOf(id)) === 'input_required');
    await updateTask(gateway, id, { a: yes, nobody: yes });
    expect(sent('tasks/update').at(-1)?.params).toMatchObject({ taskId: 'scripted-1', inputResponses: { a: yes } });
    expect(Object.keys(sent('tasks/update').at(-1)!.params.inputResponses)).toEqual(['a']);
    // The upstream has not taken `a` yet (it still lists it): the local task asks only `b`.
    await new Promise((r) => setTimeout(r, 700));
    expect(Object.keys((await getTask(gateway, id)).body.result.inputRequests)).toEqual(['b']);
    const updates = sent('tasks/update').length;
    await updateTask(gateway, id, { a: yes });
    expect(sent('tasks/update').length).toBe(updates);
    await updateTask(gateway, id, { b: yes });
    expect(Object.keys(sent('tasks/update').at(-1)!.params.inputResponses)).toEqual(['b']);
    expect((await getTask(gateway, id)).body.result.status).toBe('working');
    upstream.task = { status: 'cancelled' };
    await until('cancelled upstream, so here', async () => (await statusOf(id)) === 'cancelled');
  });

  it('tasks/cancel reaches the upstream before its ack; cancelling an ended task sends nothing', async () => {
    upstream.task = { status: 'working' };
    const id = (await call(gateway, 'scripted_job', {}, { caps: TASKS })).body.result.taskId;
    const before = sent('tasks/cancel').length;
    await cancelTask(gateway, id);
    expect(
      sent('tasks/cancel')
        .slice(before)
        .map((r) => r.params.taskId),
    ).toContain('scripted-1');
    // The mirror sees the task cancelled too and may send its own (idempotent) cancel: let it settle first.
    await new Promise((r) => setTimeout(r, 1_000));
    const settled = sent('tasks/cancel').length;
    await cancelTask(gateway, id);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(sent('tasks/cancel').length).toBe(settled);
  });

  it('an upstream that fails the task: the local task fails with its error', async () => {
    upstream.task = { status: 'working' };
    const id = (await call(gateway, 'scripted_job', {}, { caps: TASKS })).body.result.taskId;
    upstream.task = { status: 'failed', error: { code: -32001, message: 'quota exceeded', data: { left: 0 } } };
    await until('failed', async () => (await statusOf(id)) === 'failed');
    expect((await getTask(gateway, id)).body.result.error).toEqual({
      code: -32001,
      message: 'quota exceeded',
      data: { left: 0 },
    });
  });
});
