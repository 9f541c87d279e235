import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, rpc, TASKS, waitForTask } from './support/mcp-request.js';

const ELICIT = { elicitation: {} };
const yes = { action: 'accept', content: { ok: true } };
const no = { action: 'accept', content: { ok: false } };

/**
 * `inputResponses` on `tools/call` are answers to the questions this call's earlier MRTR round asked (sealed in its
 * `requestState`): nothing else reaches the run or a task, and an answer once given is never replaced.
 */
describe.each([false, true])('answers only to questions asked (fastPath %s)', (fastPath) => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createFixtureApp({ fastPath });
  });
  afterAll(() => app.close());

  const send = (name: string, caps: Record<string, unknown>, inputResponses?: unknown, requestState?: unknown) =>
    rpc(
      app,
      'tools/call',
      {
        name,
        arguments: {},
        ...(inputResponses !== undefined ? { inputResponses } : {}),
        ...(requestState !== undefined ? { requestState } : {}),
      },
      { caps },
    );

  it('a first call cannot pre-answer: the run still asks, round by round', async () => {
    const r1 = await send('ask', ELICIT, { a: yes, b: yes });
    expect(r1.body.result).toMatchObject({ resultType: 'input_required', inputRequests: { a: expect.any(Object) } });
    expect(Object.keys(r1.body.result.inputRequests)).toEqual(['a']);
  });

  it('a retry carries only answers to the keys its round asked; others are ignored (even ill-shaped)', async () => {
    const r1 = await send('ask', ELICIT);
    const r2 = await send('ask', ELICIT, { a: yes, b: yes, zzz: 42 }, r1.body.result.requestState);
    expect(r2.body.result).toMatchObject({ resultType: 'input_required' });
    expect(Object.keys(r2.body.result.inputRequests)).toEqual(['b']);
    const r3 = await send('ask', ELICIT, { b: no }, r2.body.result.requestState);
    expect(r3.body.result.content[0].text).toBe('a=true again=true b=false');
  });

  it('an answer of the wrong shape to an asked key is -32602', async () => {
    const r1 = await send('ask', ELICIT);
    const wrong = await send('ask', ELICIT, { a: 12345 }, r1.body.result.requestState);
    expect(wrong.body.error.code).toBe(-32602);
    expect(wrong.body.error.message).toMatch(/inputResponses\.a/);
  });

  it('first answer wins: a later round cannot replace an answer sealed earlier', async () => {
    const r1 = await send('ask', ELICIT);
    const r2 = await send('ask', ELICIT, { a: yes }, r1.body.result.requestState);
    const r3 = await send('ask', ELICIT, { a: no, b: yes }, r2.body.result.requestState);
    expect(r3.body.result.content[0].text).toBe('a=true again=true b=true');
  });

  it('a task gets no answers from a call without requestState: it asks, with the capability check', async () => {
    const asked = await send('ask', { ...TASKS, ...ELICIT }, { a: yes, b: yes });
    expect(asked.body.result.resultType).toBe('task');
    const waiting = await waitForTask(app, asked.body.result.taskId, (s) => s === 'input_required');
    expect(Object.keys(waiting.inputRequests)).toEqual(['a']);
    // Without the elicitation capability, a pre-answer must not get the task past the capability check.
    const blind = await send('ask', TASKS, { a: yes, b: yes });
    const ended = await waitForTask(app, blind.body.result.taskId);
    expect(ended).toMatchObject({ status: 'failed', error: { code: -32021 } });
  });

  it('prepare: the task sees the answers prepare asked for, and nothing else the retry carried', async () => {
    const caps = { ...TASKS, ...ELICIT };
    const r1 = await call(app, 'preparedMore', {}, { caps });
    expect(Object.keys(r1.body.result.inputRequests)).toEqual(['who']);
    const r2 = await send('preparedMore', caps, { who: yes, more: yes }, r1.body.result.requestState);
    expect(r2.body.result.resultType).toBe('task');
    const waiting = await waitForTask(app, r2.body.result.taskId, (s) => s === 'input_required');
    expect(Object.keys(waiting.inputRequests)).toEqual(['more']);
  });
});
