import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { createFixtureApp } from './fixtures/fixture-app.js';
import { call, rpc, TASKS, VERSION } from './support/mcp-request.js';
import { PLATFORM_MATRIX } from './support/platforms.js';

describe.each(PLATFORM_MATRIX)(
  '2026-07-28 envelope, headers and method routing (%s, fastPath %s)',
  (platform, fastPath) => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await createFixtureApp({ fastPath }, [], platform);
    });
    afterAll(() => app.close());

    const raw = (body: unknown, headers: Record<string, string>) => {
      let r = request(app.getHttpServer())
        .post('/mcp')
        .set('content-type', 'application/json')
        .set('accept', 'application/json, text/event-stream');
      for (const [k, v] of Object.entries(headers)) r = r.set(k, v);
      return r.send(typeof body === 'string' ? body : JSON.stringify(body));
    };

    it('server/discover advertises exactly the tasks extension, with server info', async () => {
      const res = await rpc(app, 'server/discover');
      expect(res.status).toBe(200);
      expect(res.body.result.capabilities.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
      expect(res.body.result.capabilities.tasks).toBeUndefined();
      expect(res.body.result.supportedVersions).toEqual([VERSION]);
      expect(res.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({
        name: 'fixture',
        version: '1.0.0',
      });
      expect(typeof res.body.result.ttlMs).toBe('number');
    });

    it('tools/list: every tool, derived input schema, stable order, no task field', async () => {
      const a = await rpc(app, 'tools/list');
      const b = await rpc(app, 'tools/list');
      const names = a.body.result.tools.map((t: { name: string }) => t.name);
      expect(names).toEqual(b.body.result.tools.map((t: { name: string }) => t.name));
      expect(names).toEqual(expect.arrayContaining(['echo', 'wait', 'job', 'chooser', 'prepared']));
      const wait = a.body.result.tools.find((t: { name: string }) => t.name === 'wait');
      expect(wait.inputSchema).toMatchObject({
        type: 'object',
        properties: { ms: { type: 'integer', minimum: 0 } },
        required: ['ms'],
      });
      expect(Object.keys(wait)).not.toContain('execution');
      expect(a.body.result.resultType).toBe('complete');
    });

    it('missing _meta keys → -32602 / 400, before anything else', async () => {
      const res = await raw(
        { jsonrpc: '2.0', id: 7, method: 'tasks/get', params: { taskId: 'x' } },
        { 'mcp-protocol-version': VERSION, 'mcp-method': 'tasks/get', 'mcp-name': 'x' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id: 7, error: { code: -32602 } });
      const noCaps = await raw(
        {
          jsonrpc: '2.0',
          id: 8,
          method: 'tools/call',
          params: { name: 'echo', _meta: { 'io.modelcontextprotocol/protocolVersion': VERSION } },
        },
        { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      );
      expect(noCaps.status).toBe(400);
      expect(noCaps.body.error.code).toBe(-32602);
    });

    it.each([
      ['missing MCP-Protocol-Version', { 'mcp-protocol-version': null }],
      ['mismatched MCP-Protocol-Version', { 'mcp-protocol-version': '2025-11-25' }],
      ['missing Mcp-Method', { 'mcp-method': null }],
      ['mismatched Mcp-Method', { 'mcp-method': 'tasks/get' }],
      ['missing Mcp-Name', { 'mcp-name': null }],
      ['mismatched Mcp-Name', { 'mcp-name': 'other' }],
    ])('tools/call with %s → -32020 / 400', async (_label, headers) => {
      const res = await call(
        app,
        'echo',
        { text: 'x' },
        { headers: headers as Record<string, string | null>, id: 'h1' },
      );
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ id: 'h1', error: { code: -32020 } });
    });

    it('tasks/get checks Mcp-Name against taskId', async () => {
      const res = await rpc(app, 'tasks/get', { taskId: 'abc' }, { caps: TASKS, headers: { 'mcp-name': 'abd' } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32020);
    });

    it('accepts a base64-encoded and a padded Mcp-Name', async () => {
      const b64 = await call(
        app,
        'echo',
        { text: 'é' },
        { headers: { 'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=` } },
      );
      expect(b64.body.result.content[0].text).toBe('echo:é');
      const padded = await call(app, 'echo', {}, { headers: { 'mcp-name': '  echo  ' } });
      expect(padded.status).toBe(200);
    });

    it('unsupported version → -32022 / 400 with supported and requested', async () => {
      const res = await raw(
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tasks/get',
          params: {
            taskId: 'x',
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2099-01-01',
              'io.modelcontextprotocol/clientCapabilities': TASKS,
            },
          },
        },
        { 'mcp-protocol-version': '2099-01-01', 'mcp-method': 'tasks/get', 'mcp-name': 'x' },
      );
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: -32022, data: { supported: [VERSION], requested: '2099-01-01' } });
    });

    it.each(['tasks/result', 'tasks/list', 'no/such', 'initialize', 'ping'])('%s → -32601 / 404', async (method) => {
      const res = await rpc(app, method, { taskId: 'x' }, { caps: TASKS, id: 44 });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ id: 44, error: { code: -32601 } });
    });

    it('check order: a non-declaring tasks/get on an unknown id is -32021, not -32602', async () => {
      const res = await rpc(app, 'tasks/get', { taskId: 'gate-test' }, { caps: {} });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
      });
    });

    it('invalid JSON → -32700 / 400; GET → 405; notification → 202', async () => {
      const bad = await raw('{"jsonrpc":', { 'mcp-protocol-version': VERSION });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.any(String) } });
      const get = await request(app.getHttpServer()).get('/mcp');
      expect(get.status).toBe(405);
      const note = await raw(
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: {
            requestId: 1,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': VERSION,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        },
        { 'mcp-protocol-version': VERSION, 'mcp-method': 'notifications/cancelled' },
      );
      expect(note.status).toBe(202);
    });

    it('valid JSON that is not a request object → -32600; a posted response → -32600; a form body → 415', async () => {
      for (const body of [
        '1',
        '"x"',
        'null',
        '{"jsonrpc":"2.0","id":1,"result":{}}',
        '{"jsonrpc":"2.0","id":2,"error":{"code":1,"message":"x"}}',
      ]) {
        const res = await raw(body, { 'mcp-protocol-version': VERSION });
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe(-32600);
      }
      const form = await request(app.getHttpServer())
        .post('/mcp')
        .set('content-type', 'application/x-www-form-urlencoded')
        .send('a=1');
      expect(form.status).toBe(415);
    });

    it('deeply nested arguments and implausible task ids are refused as invalid / unknown', async () => {
      let deep: unknown = 'x';
      for (let i = 0; i < 1500; i++) deep = [deep];
      const nested = await call(app, 'echo', { text: 'x', extra: deep });
      expect(nested.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/nested deeper/) });
      const nul = await rpc(
        app,
        'tasks/get',
        { taskId: 'a\u0000b' },
        { caps: TASKS, headers: { 'mcp-name': `=?base64?${Buffer.from('a\u0000b').toString('base64')}?=` } },
      );
      expect(nul.body.error).toEqual({ code: -32602, message: 'Task not found' });
    });

    it('DNS rebinding: a foreign Host or Origin is refused with 403', async () => {
      const host = await call(app, 'echo', {}, { headers: { host: 'evil.example.com' } });
      expect(host.status).toBe(403);
      const origin = await call(app, 'echo', {}, { headers: { origin: 'http://evil.example.com' } });
      expect(origin.status).toBe(403);
      expect(origin.body.error.code).toBe(-32600);
      const ok = await call(app, 'echo', {}, { headers: { origin: 'http://localhost:1234' } });
      expect(ok.status).toBe(200);
    });

    it('unknown tool → -32602; invalid arguments → a tool error result the model can read', async () => {
      const unknown = await call(app, 'nope', {});
      expect(unknown.body.error.code).toBe(-32602);
      const invalid = await call(app, 'wait', { ms: 'soon' }, { caps: TASKS });
      expect(invalid.body.result).toMatchObject({ resultType: 'complete', isError: true });
      expect(invalid.body.result.content[0].text).toBe(
        'Invalid arguments for tool wait:\nms: must be an integer number',
      );
      const notObject = await rpc(app, 'tools/call', { name: 'wait', arguments: [1] }, { caps: TASKS });
      expect(notObject.body.error.code).toBe(-32602);
    });
  },
);
