import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createLoggingApp } from './fixtures/logging-app.js';
import { forcedVersion } from './support/forced-version.js';
import { initialize, legacyHeaders, post, request } from './support/legacy-wire.js';
import { TASKS, VERSION } from './support/mcp-request.js';
import { connectV1 } from './support/v1-client.js';

const urlOf = (app: INestApplication) =>
  new URL(`http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/mcp`);

/** A 2026-07-28 request over real HTTP (SSE frames kept), with `meta` added to its envelope. */
function modern(url: URL, method: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}) {
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': VERSION,
    'io.modelcontextprotocol/clientCapabilities': {},
    ...meta,
  };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': VERSION,
    'mcp-method': method,
    ...(typeof params.name === 'string' ? { 'mcp-name': params.name } : {}),
  };
  return post(url, request(method, { ...params, _meta: envelope }), headers);
}

const levelsOf = (frames: Array<Record<string, any>>) =>
  frames.filter((f) => f.method === 'notifications/message').map((f) => f.params.level as string);

describe('ctx.log: notifications/message on the call stream', () => {
  let app: INestApplication;
  let url: URL;

  beforeAll(async () => {
    app = await createLoggingApp();
    url = urlOf(app);
  });
  afterAll(() => app.close());

  describe('2026-07-28 (the level travels in each request _meta)', () => {
    it('sends the messages at or above _meta logLevel on the call stream, then the result', async () => {
      const res = await modern(url, 'tools/call', { name: 'chatty', arguments: {} }, { [LOG_LEVEL]: 'warning' });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/event-stream/);
      expect(res.frames.map((f) => f.method ?? 'response')).toEqual([
        'notifications/message',
        'notifications/message',
        'response',
      ]);
      expect(res.frames[0]).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: 'one was stale' },
      });
      expect(res.frames[1].params).toEqual({ level: 'error', logger: 'finder', data: 'one failed' });
      expect(res.body.result.content).toEqual([{ type: 'text', text: 'done' }]);
    });

    it('debug gets every message, objects as data', async () => {
      const res = await modern(url, 'tools/call', { name: 'chatty', arguments: {} }, { [LOG_LEVEL]: 'debug' });
      expect(levelsOf(res.frames)).toEqual(['debug', 'info', 'warning', 'error']);
      expect(res.frames[1].params).toEqual({ level: 'info', logger: 'finder', data: { step: 'found', count: 2 } });
    });

    it('sends none without _meta logLevel: a plain JSON answer', async () => {
      const res = await modern(url, 'tools/call', { name: 'chatty', arguments: {} });
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.frames).toEqual([]);
      expect(res.body.result.content).toEqual([{ type: 'text', text: 'done' }]);
    });

    it('refuses a logLevel that is no RFC 5424 level: 400, -32602', async () => {
      const res = await modern(url, 'tools/call', { name: 'chatty', arguments: {} }, { [LOG_LEVEL]: 'loud' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe(-32602);
    });

    it('a task logs nowhere: its handle comes alone', async () => {
      const meta = { [LOG_LEVEL]: 'debug', 'io.modelcontextprotocol/clientCapabilities': TASKS };
      const res = await modern(url, 'tools/call', { name: 'chatty_task', arguments: {} }, meta);
      expect(res.frames).toEqual([]);
      expect(res.body.result.resultType).toBe('task');
    });

    it('a tool logging at a level that is none fails the call, not the server', async () => {
      const res = await modern(url, 'tools/call', { name: 'bad_level', arguments: {} }, { [LOG_LEVEL]: 'debug' });
      // A TypeError thrown by the tool: an internal error whose detail stays in the server's log.
      expect(res.body.error).toEqual({ code: -32603, message: 'Internal error' });
      expect(res.frames.filter((f) => f.method === 'notifications/message')).toEqual([]);
    });

    it('logging/setLevel stays unknown on 2026-07-28 (404, -32601)', async () => {
      const res = await modern(url, 'logging/setLevel', { level: 'info' });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe(-32601);
    });

    it('server/discover advertises the logging capability', async () => {
      const res = await modern(url, 'server/discover', {});
      expect(res.body.result.capabilities.logging).toEqual({});
    });
  });

  describe('2025 revisions (logging/setLevel, per session)', () => {
    it.each(['2025-11-25', '2025-06-18'])('%s: each session gets the levels it set (v1 SDK client)', async (v) => {
      const quiet = await connectV1(url, { fetch: forcedVersion(v), name: 'quiet' });
      const loud = await connectV1(url, { fetch: forcedVersion(v), name: 'loud' });
      try {
        expect(quiet.client.getServerCapabilities()?.logging).toEqual({});
        const heard: Record<string, string[]> = { quiet: [], loud: [] };
        for (const [name, c] of [
          ['quiet', quiet],
          ['loud', loud],
        ] as const) {
          c.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
            heard[name].push(n.params.level);
          });
        }
        await quiet.client.setLoggingLevel('error');
        await Promise.all([
          quiet.client.callTool({ name: 'chatty', arguments: {} }),
          loud.client.callTool({ name: 'chatty', arguments: {} }),
        ]);
        expect(heard.quiet).toEqual(['error']);
        // No level set: every message.
        expect(heard.loud).toEqual(['debug', 'info', 'warning', 'error']);
        await loud.client.setLoggingLevel('warning');
        heard.loud = [];
        await loud.client.callTool({ name: 'chatty', arguments: {} });
        expect(heard.loud).toEqual(['warning', 'error']);
      } finally {
        await quiet.close();
        await loud.close();
      }
    });

    it('logging/setLevel answers {}; a level that is none is -32602', async () => {
      const { session, result } = await initialize(url);
      expect(result.capabilities.logging).toEqual({});
      const ok = await post(url, request('logging/setLevel', { level: 'notice' }), legacyHeaders(session));
      expect(ok.body).toMatchObject({ result: {} });
      expect(Object.keys(ok.body.result)).toEqual([]);
      const bad = await post(url, request('logging/setLevel', { level: 'loud' }), legacyHeaders(session));
      expect(bad.body.error.code).toBe(-32602);
    });

    it('the level holds for its session on the call stream (raw HTTP, notice: warning and error)', async () => {
      const { session } = await initialize(url);
      await post(url, request('logging/setLevel', { level: 'notice' }), legacyHeaders(session));
      const res = await post(url, request('tools/call', { name: 'chatty', arguments: {} }), legacyHeaders(session));
      expect(levelsOf(res.frames)).toEqual(['warning', 'error']);
      expect(res.body.result.content).toEqual([{ type: 'text', text: 'done' }]);
    });

    it('without a session, setLevel is accepted and remembered nowhere: a call gets every level', async () => {
      const set = await post(url, request('logging/setLevel', { level: 'error' }), legacyHeaders());
      expect(set.body).toMatchObject({ result: {} });
      const res = await post(url, request('tools/call', { name: 'chatty', arguments: {} }), legacyHeaders());
      expect(levelsOf(res.frames)).toEqual(['debug', 'info', 'warning', 'error']);
    });
  });
});

const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
