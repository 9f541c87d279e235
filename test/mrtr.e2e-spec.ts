import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, rpc, TASKS, waitForTask } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';

const ELICIT = { elicitation: {} };
const yes = { action: 'accept', content: { ok: true } };

describe.each(PLATFORMS)('on %s', (platform) => {
  const fixtureApp = (options: Parameters<typeof createFixtureApp>[0] = {}, imports: unknown[] = []) =>
    createFixtureApp(options, imports, platform);

  describe.each([false, true])('synchronous input (MRTR) and prepare (fastPath %s)', (fastPath) => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await fixtureApp({ fastPath, subject: (req) => String(req.headers['x-user'] ?? 'anon') });
    });
    afterAll(() => app.close());

    const retry = (name: string, inputResponses: unknown, requestState?: unknown, o: Record<string, unknown> = {}) =>
      rpc(
        app,
        'tools/call',
        { name, arguments: {}, inputResponses, ...(requestState !== undefined ? { requestState } : {}) },
        { caps: ELICIT, ...o },
      );

    it('asks round by round; requestState carries earlier answers; keys are asked once', async () => {
      const r1 = await call(app, 'ask', {}, { caps: ELICIT });
      expect(r1.body.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { a: { method: 'elicitation/create' } },
      });
      expect(typeof r1.body.result.requestState).toBe('string');
      const r2 = await retry('ask', { a: yes }, r1.body.result.requestState);
      expect(Object.keys(r2.body.result.inputRequests)).toEqual(['b']);
      expect(r2.body.result.requestState).not.toBe(r1.body.result.requestState);
      const r3 = await retry('ask', { b: { action: 'accept', content: { ok: false } } }, r2.body.result.requestState);
      expect(r3.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ text: 'a=true again=true b=false' }],
      });
    });

    it('tampered, foreign-tool, other-caller or garbage requestState → -32602', async () => {
      const r1 = await call(app, 'ask', {}, { caps: ELICIT });
      const state = r1.body.result.requestState as string;
      const tampered = await retry('ask', { b: yes }, `${state}-TAMPERED`);
      expect(tampered.body.error.code).toBe(-32602);
      const [body, mac] = state.split('.');
      const forged = Buffer.from(
        JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), answers: { a: yes } }),
      ).toString('base64url');
      expect((await retry('ask', { b: yes }, `${forged}.${mac}`)).body.error.code).toBe(-32602);
      expect((await retry('pair', { x: yes }, state)).body.error.code).toBe(-32602);
      expect((await retry('ask', { b: yes }, state, { headers: { 'x-user': 'mallory' } })).body.error.code).toBe(
        -32602,
      );
      expect((await retry('ask', {}, 42)).body.error.code).toBe(-32602);
    });

    it('a missing answer asks again; an answer of the wrong shape is an error; extra keys are ignored', async () => {
      const state = (await call(app, 'ask', {}, { caps: ELICIT })).body.result.requestState;
      const again = await retry('ask', { zzz: yes }, state);
      expect(again.body.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { a: expect.any(Object) },
      });
      const wrong = await retry('ask', { a: 12345 }, state);
      expect(wrong.body.error.code).toBe(-32602);
      const nul = await retry('ask', null, state);
      expect(nul.body.result.resultType).toBe('input_required');
    });

    it('several asks at once come in one round', async () => {
      const r = await call(app, 'pair', {}, { caps: ELICIT });
      expect(Object.keys(r.body.result.inputRequests).sort()).toEqual(['x', 'y']);
      const done = await retry('pair', { x: yes, y: yes }, r.body.result.requestState);
      expect(done.body.result.content[0].text).toBe('x=true y=true');
    });

    it('input the request cannot give → -32021 naming the capability', async () => {
      const r = await call(app, 'ask', {}, { caps: {}, id: 9 });
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({
        id: 9,
        error: { code: -32021, data: { requiredCapabilities: { elicitation: {} } } },
      });
    });

    it('prepare asks in the request, then the task starts and sees the answer', async () => {
      const caps = { ...ELICIT, ...TASKS };
      const r1 = await call(app, 'prepared', {}, { caps });
      expect(r1.body.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { who: { method: 'elicitation/create' } },
      });
      expect(r1.body.result.taskId).toBeUndefined();
      const r2 = await rpc(
        app,
        'tools/call',
        { name: 'prepared', arguments: {}, inputResponses: { who: yes }, requestState: r1.body.result.requestState },
        { caps },
      );
      expect(r2.body.result.resultType).toBe('task');
      expect(r2.body.result.inputRequests).toBeUndefined();
      const done = await waitForTask(app, r2.body.result.taskId);
      expect(done.result.content[0].text).toBe('prepared ok=true task=true');
    });

    it('progress in a synchronous call streams notifications/progress over SSE before the result', async () => {
      const res = await call(app, 'progress', {}, { meta: { progressToken: 'p1' } });
      expect(res.headers['content-type']).toMatch(/text\/event-stream/);
      const frames = res.text
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => JSON.parse(l.slice(6)));
      expect(frames.slice(0, 2)).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'p1', progress: 1, total: 2, message: 'half' },
        },
        { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p1', progress: 2, total: 2 } },
      ]);
      expect(frames[2]).toMatchObject({
        id: expect.anything(),
        result: { resultType: 'complete', content: [{ text: 'done' }] },
      });
      const plain = await call(app, 'progress', {});
      expect(plain.headers['content-type']).toMatch(/application\/json/);
    });
  });
});
