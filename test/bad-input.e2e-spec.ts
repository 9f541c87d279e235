import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { TASKS, VERSION } from './support/mcp-request.js';
import { PLATFORM_MATRIX } from './support/platforms.js';

const LEGACY = '2025-11-25';
const meta = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': TASKS,
};

/** `levels` nested arrays (or `{"a":…}` objects) around a 1, as JSON text. */
const nested = (levels: number, open = '[') => `${open.repeat(levels)}1${(open === '[' ? ']' : '}').repeat(levels)}`;

/** Each method the endpoint accepts, as a 2026-07-28 (or, for `initialize`, a 2025-era) message. */
const MESSAGES: Array<{ method: string; params: Record<string, unknown>; legacy?: boolean; notification?: boolean }> = [
  { method: 'server/discover', params: { _meta: meta } },
  { method: 'tools/list', params: { _meta: meta } },
  { method: 'resources/list', params: { _meta: meta } },
  { method: 'subscriptions/listen', params: { _meta: meta } },
  { method: 'no/such/method', params: { _meta: meta } },
  { method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: meta } },
  { method: 'tasks/get', params: { taskId: 'abc', _meta: meta } },
  { method: 'notifications/initialized', params: { _meta: meta }, notification: true },
  {
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'old', version: '1' } },
    legacy: true,
  },
];

describe.each(PLATFORM_MATRIX)(
  'bad input on every method, before the SDK sees it (%s, fastPath %s)',
  (platform, fastPath) => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await createFixtureApp({ fastPath }, [], platform);
    });
    afterAll(() => app.close());

    /** `m` with `deep` (JSON text) put at `where`: an extra param, inside `_meta`, or inside tool arguments. */
    function send(m: (typeof MESSAGES)[number], deep: string, where: 'param' | 'meta' | 'arguments' = 'param') {
      const params = structuredClone(m.params) as Record<string, any>;
      (where === 'meta' ? (params._meta ??= {}) : where === 'arguments' ? params.arguments : params).deep = '__DEEP__';
      const body = { jsonrpc: '2.0', ...(m.notification ? {} : { id: `q-${m.method}` }), method: m.method, params };
      let r = request(app.getHttpServer())
        .post('/mcp')
        .set('content-type', 'application/json')
        .set('accept', 'application/json, text/event-stream')
        .set('mcp-protocol-version', m.legacy ? LEGACY : VERSION);
      if (!m.legacy) r = r.set('mcp-method', m.method);
      if (m.method === 'tools/call') r = r.set('mcp-name', 'echo');
      if (m.method === 'tasks/get') r = r.set('mcp-name', 'abc');
      return r.send(JSON.stringify(body).replace('"__DEEP__"', () => deep));
    }

    const refused = (m: (typeof MESSAGES)[number], res: request.Response) => {
      expect([m.method, res.status, res.body]).toEqual([
        m.method,
        400,
        {
          jsonrpc: '2.0',
          id: m.notification ? null : `q-${m.method}`,
          error: { code: -32602, message: 'Invalid params: nested deeper than 64 levels' },
        },
      ]);
    };

    it('thousands of levels deep (well under the body limit): -32602 / 400 with the id, on every method', async () => {
      for (const m of MESSAGES) {
        for (const deep of [nested(5_000), nested(10_000, '{"a":')]) {
          refused(m, await send(m, deep));
          refused(m, await send(m, deep, m.legacy ? 'param' : 'meta'));
        }
      }
    }, 60_000);

    it('the limit is the one tool arguments have: 64 levels pass, 65 are refused, on every method', async () => {
      for (const m of MESSAGES) {
        const atLimit = await send(m, nested(64));
        expect([m.method, atLimit.status < 500]).toEqual([m.method, true]);
        expect(atLimit.body?.error?.message ?? '').not.toMatch(/nested deeper/);
        refused(m, await send(m, nested(65)));
      }
      const call = MESSAGES.find((m) => m.method === 'tools/call')!;
      const ok = await send(call, nested(63), 'arguments');
      expect(ok.body.result.content).toEqual([{ type: 'text', text: 'echo:x' }]);
      refused(call, await send(call, nested(64), 'arguments'));
    }, 60_000);

    it('a tool name that is no string (say an object whose toString is no function): -32602, not -32603', async () => {
      for (const name of [{ toString: true }, { a: 1 }, 42, null, ['echo']]) {
        const res = await request(app.getHttpServer())
          .post('/mcp')
          .set('content-type', 'application/json')
          .set('accept', 'application/json, text/event-stream')
          .set('mcp-protocol-version', VERSION)
          .set('mcp-method', 'tools/call')
          .set('mcp-name', JSON.stringify(name))
          .send({ jsonrpc: '2.0', id: 'n', method: 'tools/call', params: { name, arguments: {}, _meta: meta } });
        expect([name, res.body]).toEqual([
          name,
          { jsonrpc: '2.0', id: 'n', error: { code: -32602, message: 'params.name must be a string' } },
        ]);
      }
    });

    it('a 2025-era initialize with params it cannot use: -32602 with the id, never -32603', async () => {
      const init = MESSAGES.find((m) => m.legacy)!;
      for (const params of [
        undefined,
        {},
        { protocolVersion: 5, capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      ]) {
        const res = await request(app.getHttpServer())
          .post('/mcp')
          .set('content-type', 'application/json')
          .set('accept', 'application/json, text/event-stream')
          .set('mcp-protocol-version', LEGACY)
          .send({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', ...(params ? { params } : {}) });
        // The 2025 wire answers invalid params at 200, as the SDK does there.
        expect([res.status, res.body]).toEqual([
          200,
          {
            jsonrpc: '2.0',
            id: 'init-1',
            error: { code: -32602, message: 'initialize needs protocolVersion, capabilities and clientInfo' },
          },
        ]);
      }
      const ok = await send(init, '1');
      expect(ok.status).toBe(200);
      expect(ok.text).toContain(`"protocolVersion":"${LEGACY}"`);
    });

    it('over the platform’s body limit (Express 100 KB, Fastify 1 MiB): 413 -32600 on SDK methods too', async () => {
      for (const m of MESSAGES.filter((x) => !['tools/call', 'tasks/get'].includes(x.method))) {
        const res = await send(m, JSON.stringify('x'.repeat(1100 * 1024)));
        expect([m.method, res.status, res.body.error?.code]).toEqual([m.method, 413, -32600]);
      }
    }, 60_000);
  },
);
