import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { BannedUsersGuard } from './fixtures/real-app/app-auth.js';
import { RequestTools, validations } from './fixtures/real-app/app-tools.js';
import { createRealApp } from './fixtures/real-app/real-app.js';
import { listen } from './support/listen.js';
import { call, getTask, rpc, TASKS, waitForTask } from './support/mcp-request.js';
import { PLATFORM_MATRIX } from './support/platforms.js';
import { hs256 } from './support/tokens.js';

const PATH = '/api/v1/mcp';

describe.each(PLATFORM_MATRIX)(
  'an app with global guards, interceptors and pipes (%s, fastPath %s)',
  (platform, fastPath) => {
    let app: INestApplication;
    let origin: string;
    /** A token for this app's resource (the URL the endpoint is served at), and headers for one test's own budget. */
    const as = (claims: Record<string, unknown> = {}, trace = 't') => ({
      path: PATH,
      headers: {
        authorization: `Bearer ${hs256({ aud: `${origin}${PATH}`, ...claims })}`,
        'x-trace': trace,
      },
    });
    beforeAll(async () => {
      ({ app } = await createRealApp(platform, { fastPath }));
      origin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    });
    afterAll(() => app.close());
    beforeEach(() => {
      BannedUsersGuard.seen = [];
    });

    it('serves the endpoint under the global prefix and version; the app keeps its own routes and guard', async () => {
      const ok = await call(app, 'greet', { name: 'ada', ms: 0 }, as());
      expect(ok.body.result.content[0].text).toBe('hello ada (dto: true)');
      expect((await call(app, 'greet', { name: 'ada', ms: 0 })).status).toBe(404);
      expect((await request(app.getHttpServer()).get('/api/v1/me')).status).toBe(401);
      expect((await request(app.getHttpServer()).get('/api/v1/me/public')).text).toBe('open');
    });

    it('challenges, the metadata route and the resource agree (RFC 9728, prefix and version included)', async () => {
      const refused = await rpc(app, 'tools/list', {}, { path: PATH, id: 'c1' });
      expect(refused.status).toBe(401);
      const metadataUrl = `${origin}/.well-known/oauth-protected-resource${PATH}`;
      expect(refused.headers['www-authenticate']).toBe(`Bearer resource_metadata="${metadataUrl}"`);
      expect(refused.body).toMatchObject({ id: 'c1', error: { code: -32600 } });
      const metadata = await request(app.getHttpServer()).get(new URL(metadataUrl).pathname);
      expect(metadata.status).toBe(200);
      expect(metadata.body).toEqual({
        resource: `${origin}${PATH}`,
        authorization_servers: ['https://auth.example.test'],
        scopes_supported: ['tools'],
        bearer_methods_supported: ['header'],
      });
      const wrongAud = await call(app, 'greet', { name: 'x', ms: 0 }, as({ aud: `${origin}/mcp` }));
      expect(wrongAud.status).toBe(401);
      expect(wrongAud.headers['www-authenticate']).toContain(`resource_metadata="${metadataUrl}"`);
    });

    it("app-wide guards run once per MCP request, type mcp, seeing the request and the app's req.user", async () => {
      const created = await call(app, 'greet', { name: 'bo', ms: 200 }, { ...as({}, 'call'), caps: TASKS });
      const taskId = created.body.result.taskId as string;
      await getTask(app, taskId, as({}, 'get'));
      await rpc(app, 'tools/list', {}, as({}, 'list'));
      const s = await listen(app, { taskIds: [taskId] }, { ...as({}, 'listen'), caps: TASKS });
      await s.next((f) => f.method === 'notifications/subscriptions/acknowledged');
      s.close();
      expect(BannedUsersGuard.seen).toEqual([
        { type: 'mcp', user: 'alice', header: 'call', handler: 'greet' },
        { type: 'mcp', user: 'alice', header: 'get', handler: 'handle' },
        { type: 'mcp', user: 'alice', header: 'list', handler: 'handle' },
        { type: 'mcp', user: 'alice', header: 'listen', handler: 'handle' },
      ]);
      await waitForTask(app, taskId, undefined, 10_000, as());
    });

    it('a refusing app guard answers every MCP method with a JSON-RPC error, before anything runs', async () => {
      const banned = as({ sub: 'eve', banned: true });
      const tool = await call(app, 'greet', { name: 'eve', ms: 0 }, { ...banned, caps: TASKS, id: 'b1' });
      expect(tool.status).toBe(403);
      expect(tool.body).toEqual({
        jsonrpc: '2.0',
        id: 'b1',
        error: { code: -32600, message: 'banned users may not call' },
      });
      for (const method of ['tools/list', 'server/discover', 'tasks/get']) {
        const res = await rpc(app, method, { taskId: 'x' }, { ...banned, caps: TASKS, id: method });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ id: method, error: { code: -32600, message: 'banned users may not call' } });
      }
      const unknown = await call(app, 'no_such_tool', {}, { ...banned, id: 'u' });
      expect(unknown.status).toBe(403);
    });

    it('ValidationPipe app-wide: arguments are validated once and the tool gets the DTO instance', async () => {
      validations.count = 0;
      const plain = await call(app, 'greet', { name: 'v', ms: 0 }, as());
      expect(plain.body.result.content[0].text).toBe('hello v (dto: true)');
      expect(validations.count).toBe(1);
      const decorated = await call(app, 'greet_decorated', { name: 'w', ms: 0 }, as());
      expect(decorated.body.result.content[0].text).toBe('hi w (dto: true)');
      expect(validations.count).toBe(2);
      const invalid = await call(app, 'greet', { name: 'v', ms: 'soon' }, as());
      expect(invalid.body.result).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/^ms: must be an integer/m) }],
      });
    });

    it('ClassSerializerInterceptor app-wide serializes tool results, in the request and in a task', async () => {
      const sync = await call(app, 'profile', {}, as());
      expect(sync.body.result.structuredContent).toEqual({ name: 'alice' });
      const task = await call(app, 'profile', {}, { ...as(), caps: TASKS });
      const done = await waitForTask(app, task.body.result.taskId, undefined, 10_000, as());
      expect(done.result.structuredContent).toEqual({ name: 'alice' });
    });

    it('request-scoped tool provider: an instance per call, built with its REQUEST; a task keeps its own', async () => {
      const first = await call(app, 'who_asks', {}, as({}, 'one'));
      const second = await call(app, 'who_asks', {}, as({}, 'two'));
      const [a, b] = [first, second].map((r) => String(r.body.result.content[0].text));
      expect(a).toMatch(/^instance \d+ for one as alice$/);
      expect(b).toMatch(/^instance \d+ for two as alice$/);
      expect(a.split(' ')[1]).not.toBe(b.split(' ')[1]);
      const made = RequestTools.made;
      const task = await call(app, 'who_asks', { ms: 100 }, { ...as({ sub: 'bob' }, 'task'), caps: TASKS });
      await call(app, 'who_asks', {}, as({}, 'meanwhile'));
      const done = await waitForTask(app, task.body.result.taskId, undefined, 10_000, as({ sub: 'bob' }));
      expect(done.result.content[0].text).toBe(`instance ${made + 1} for task as bob`);
    });
  },
);
