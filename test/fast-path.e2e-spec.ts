import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication, NestMiddleware } from '@nestjs/common';
import { Injectable, Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { FixtureToolsModule } from './fixtures/fixture-app.js';
import { call, getTask, rpc, TASKS, VERSION, waitForTask } from './support/mcp-request.js';

/** App-wide middleware that marks every response it sees. */
@Injectable()
class MarkMiddleware implements NestMiddleware {
  use(_req: IncomingMessage, res: ServerResponse, next: () => void): void {
    res.setHeader('x-app-middleware', 'ran');
    next();
  }
}

@Module({ providers: [MarkMiddleware] })
class MarkModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(MarkMiddleware).forRoutes('*path');
  }
}

async function appWith(fastPath: boolean | undefined, prefix?: string): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule({
    imports: [
      McpTasksModule.forRoot({ server: { name: 'fixture', version: '1.0.0' }, pollInterval: 50, fastPath }),
      FixtureToolsModule,
      MarkModule,
    ],
  }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  if (prefix) app.setGlobalPrefix(prefix);
  await app.listen(0, '127.0.0.1');
  return app;
}

const marked = (res: { headers: Record<string, unknown> }) => res.headers['x-app-middleware'] === 'ran';

describe('fastPath', () => {
  describe('on', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await appWith(true);
    });
    afterAll(() => app.close());

    it('answers tools/call and tasks/* itself: same wire, app middleware not run', async () => {
      const created = await call(app, 'job', { ms: 10 }, { caps: TASKS });
      expect(created.status).toBe(200);
      expect(created.body.result).toMatchObject({ resultType: 'task', status: 'working' });
      expect(marked(created)).toBe(false);
      const done = await waitForTask(app, created.body.result.taskId);
      expect(done.status).toBe('completed');
      const got = await getTask(app, created.body.result.taskId);
      expect(got.body.result._meta['io.modelcontextprotocol/serverInfo']).toEqual({
        name: 'fixture',
        version: '1.0.0',
      });
      expect(marked(got)).toBe(false);
    });

    it('tool guards and interceptors still run on the fast path', async () => {
      const refused = await call(app, 'guarded', { allow: false });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: -32600, message: 'Forbidden resource' });
      const allowed = await call(app, 'guarded', { allow: true });
      expect(allowed.body.result.content[0].text).toBe('let through');
      const intercepted = await call(app, 'intercepted', {});
      expect(intercepted.body.result.content[0].text).toBe('[inner]');
    });

    it('everything else still goes through the app (middleware, SDK)', async () => {
      const list = await rpc(app, 'tools/list');
      expect(list.status).toBe(200);
      expect(marked(list)).toBe(true);
      // No Mcp-Method header: the request is not recognised as one the library owns.
      const legacy = await rpc(app, 'tasks/get', { taskId: 'x' }, { caps: TASKS, headers: { 'mcp-method': null } });
      expect(marked(legacy)).toBe(true);
      expect(legacy.body.error.code).toBe(-32020);
      const get = await request(app.getHttpServer()).get('/mcp');
      expect(get.status).toBe(405);
      expect(marked(get)).toBe(true);
    });

    it('bad input on the fast path gets the same JSON-RPC errors', async () => {
      const post = (body: string, headers: Record<string, string> = {}) =>
        request(app.getHttpServer())
          .post('/mcp')
          .set({
            'content-type': 'application/json',
            'mcp-protocol-version': VERSION,
            'mcp-method': 'tasks/get',
            'mcp-name': 'x',
            ...headers,
          })
          .send(body);
      const notJson = await post('{"jsonrpc":');
      expect(notJson.status).toBe(400);
      expect(notJson.body).toEqual({ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700 }) });
      expect(marked(notJson)).toBe(false);
      const unknown = await getTask(app, 'no-such-task');
      expect(unknown.body.error.code).toBe(-32602);
      const mismatch = await getTask(app, 'abc', { headers: { 'mcp-name': 'other' } });
      expect(mismatch.status).toBe(400);
      expect(mismatch.body.error.code).toBe(-32020);
      const wrongVersion = await rpc(
        app,
        'tasks/get',
        { taskId: 'x' },
        {
          caps: TASKS,
          meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
          headers: { 'mcp-protocol-version': '2099-01-01' },
        },
      );
      expect(wrongVersion.body.error.code).toBe(-32022);
      const extraKey = await post(
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: { taskId: 'x', _meta: {} }, extra: 1 }),
      );
      expect(extraKey.status).toBe(400);
      expect(extraKey.body.error.code).toBe(-32600);
      // Not JSON: left to the app, which answers 415 through the SDK.
      const text = await post('hello', { 'content-type': 'text/plain' });
      expect(text.status).toBe(415);
      expect(marked(text)).toBe(true);
    });

    it('a body over 100 KB gets 413 -32600, like the Nest route; a deeply nested _meta is still answered', async () => {
      const big = await call(app, 'echo', { text: 'x'.repeat(120 * 1024) });
      expect(big.status).toBe(413);
      expect(big.body.error.code).toBe(-32600);
      // Too deep for JSON.stringify (the memo key), not for JSON.parse: written out as text.
      const deep = `${'{"a":'.repeat(15_000)}{}${'}'.repeat(15_000)}`;
      const meta =
        `{"io.modelcontextprotocol/protocolVersion":"${VERSION}",` +
        `"io.modelcontextprotocol/clientCapabilities":{},"x-deep":${deep}}`;
      const res = await request(app.getHttpServer())
        .post('/mcp')
        .set({
          'content-type': 'application/json',
          'mcp-protocol-version': VERSION,
          'mcp-method': 'tools/call',
          'mcp-name': 'echo',
        })
        .send(
          `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},"_meta":` +
            `${meta}}}`,
        );
      expect([200, 400]).toContain(res.status);
      expect(res.body.id).toBe(5);
      expect(res.body.error?.code ?? 0).not.toBe(-32603);
    });

    it('a path that only looks like the endpoint is left to the app', async () => {
      const res = await rpc(app, 'tasks/get', { taskId: 'x' }, { caps: TASKS, path: '/mcp/extra' });
      expect(res.status).toBe(404);
      expect(marked(res)).toBe(true);
    });
  });

  describe('with a global prefix', () => {
    let app: INestApplication;
    afterEach(() => app.close());

    it('serves the prefixed path and not the bare one', async () => {
      app = await appWith(true, 'api');
      const created = await call(app, 'echo', { text: 'hi' }, { path: '/api/mcp' });
      expect(created.body.result.content[0].text).toBe('echo:hi');
      expect(marked(created)).toBe(false);
      const bare = await call(app, 'echo', { text: 'hi' });
      expect(bare.status).toBe(404);
    });
  });

  describe('off (the default)', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await appWith(undefined);
    });
    afterAll(() => app.close());

    it('every request goes through the app and its middleware', async () => {
      const res = await call(app, 'echo', { text: 'hi' });
      expect(res.body.result.content[0].text).toBe('echo:hi');
      expect(marked(res)).toBe(true);
    });
  });

  it('a non-boolean fastPath is refused at startup', async () => {
    await expect(appWith('yes' as never)).rejects.toThrow(
      'McpTasksModule: invalid options: fastPath must be a boolean',
    );
  });
});
