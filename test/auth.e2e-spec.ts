import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Injectable, Module, type INestApplication } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import request from 'supertest';
import { createAuthApp } from './fixtures/auth-app.js';
import { call, getTask, rpc, TASKS } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';
import { hs256, ISSUER, jwksServer, RESOURCE, SECRET } from './support/tokens.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const METADATA_URL = 'http://127.0.0.1/.well-known/oauth-protected-resource/mcp';

@Injectable()
class AppJwtStrategy extends PassportStrategy(Strategy, 'app-jwt') {
  constructor() {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      secretOrKey: 'app-secret-app-secret-app-secret',
      algorithms: ['HS256'],
    });
  }
  validate(payload: Record<string, unknown>): Record<string, unknown> {
    return payload;
  }
}
@Module({ providers: [AppJwtStrategy] })
class AppAuthModule {}

describe.each(PLATFORMS)('on %s', (platform) => {
  const authApp = (
    options: Parameters<typeof createAuthApp>[0] = {},
    imports: unknown[] = [],
    more: Parameters<typeof createAuthApp>[2] = [],
  ) => createAuthApp(options, imports, more, platform);

  describe.each([false, true])('authentication (HS256, module strategy; fastPath %s)', (fastPath) => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await authApp({ fastPath });
    });
    afterAll(() => app.close());

    it('no token → 401 with the resource_metadata challenge and the request id', async () => {
      const res = await rpc(app, 'tools/list', {}, { id: 'n1' });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe(`Bearer resource_metadata="${METADATA_URL}"`);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'n1', error: { code: -32600 } });
    });

    it.each([
      ['a bad signature', hs256({}, 'another-secret-another-secret-another')],
      ['an expired token', hs256({ exp: Math.floor(Date.now() / 1000) - 60 })],
      ['a wrong issuer', hs256({ iss: 'https://evil.example' })],
      ['a wrong audience (another resource)', hs256({ aud: 'https://other.example/mcp' })],
      ['garbage', 'not-a-jwt'],
    ])('%s → 401 invalid_token', async (_label, token) => {
      const res = await call(app, 'read_file', {}, { ...bearer(token), id: 7 });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toMatch(
        new RegExp(
          '^Bearer error="invalid_token", error_description=".+", ' +
            'resource_metadata="http://127\\.0\\.0\\.1/\\.well-known/oauth-protected-resource/mcp"$',
        ),
      );
      expect(res.body).toMatchObject({ id: 7, error: { code: -32600 } });
    });

    it('a missing scope → 403 insufficient_scope listing every scope needed, before anything runs', async () => {
      const res = await call(
        app,
        'write_file',
        {},
        { ...bearer(hs256({ scope: 'files:read' })), caps: TASKS, id: 'w' },
      );
      expect(res.status).toBe(403);
      expect(res.headers['www-authenticate']).toBe(
        `Bearer error="insufficient_scope", scope="files:read files:write", resource_metadata="${METADATA_URL}"`,
      );
      expect(res.body).toMatchObject({
        id: 'w',
        error: { code: -32600, data: { requiredScopes: ['files:read', 'files:write'] } },
      });
      const ok = await call(app, 'write_file', {}, bearer(hs256({ scope: 'files:read files:write' })));
      expect(ok.body.result.content[0].text).toBe('written');
    });

    it('scopes are checked before the arguments: no schema is learnt from an error result without them', async () => {
      const reader = bearer(hs256({ scope: 'files:read' }));
      for (const args of [{ bytes: 'many' }, {}, { bytes: 0 }]) {
        const res = await call(app, 'write_sized', args, { ...reader, caps: TASKS, id: 'ws' });
        expect(res.status).toBe(403);
        expect(res.headers['www-authenticate']).toMatch(
          /^Bearer error="insufficient_scope", scope="files:read files:write"/,
        );
        expect(res.body).toMatchObject({ id: 'ws', error: { code: -32600 } });
        expect(res.text).not.toMatch(/bytes/);
      }
      // Nor from a bad requestState.
      const state = await rpc(
        app,
        'tools/call',
        { name: 'write_sized', arguments: { bytes: 1 }, requestState: 'forged.state' },
        { ...reader, caps: TASKS },
      );
      expect(state.status).toBe(403);
      const writer = bearer(hs256({ scope: 'files:read files:write' }));
      const invalid = await call(app, 'write_sized', { bytes: 'many' }, writer);
      expect(invalid.body.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/bytes/) }] });
      expect((await call(app, 'write_sized', { bytes: 3 }, writer)).body.result.content[0].text).toBe('wrote 3');
    });

    it('tools/list shows only what the scopes allow, privately cached', async () => {
      const none = await rpc(app, 'tools/list', {}, bearer(hs256({ scope: '' })));
      expect(none.body.result.tools.map((t: { name: string }) => t.name)).toEqual(['job']);
      expect(none.body.result.cacheScope).toBe('private');
      const read = await rpc(app, 'tools/list', {}, bearer(hs256({ scope: 'files:read' })));
      expect(read.body.result.tools.map((t: { name: string }) => t.name).sort()).toEqual([
        'ask_user',
        'job',
        'read_file',
      ]);
    });

    it('a remembered token still expires on time', async () => {
      const token = hs256({ scope: 'files:read', exp: Math.floor(Date.now() / 1000) + 2 });
      expect((await call(app, 'read_file', {}, bearer(token))).status).toBe(200);
      expect((await call(app, 'read_file', {}, bearer(token))).status).toBe(200);
      await new Promise((r) => setTimeout(r, 2100 - (Date.now() % 1000)));
      const late = await call(app, 'read_file', {}, bearer(token));
      expect(late.status).toBe(401);
    });

    it('protected-resource metadata at the well-known path and its /mcp-suffixed form', async () => {
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const res = await request(app.getHttpServer()).get(path);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({
          resource: RESOURCE,
          authorization_servers: [ISSUER],
          scopes_supported: ['files:read', 'files:write'],
          bearer_methods_supported: ['header'],
        });
      }
    });
  });

  describe('authentication with RS256 keys from a JWKS endpoint', () => {
    let app: INestApplication;
    let jwks: Awaited<ReturnType<typeof jwksServer>>;
    beforeAll(async () => {
      jwks = await jwksServer();
      app = await authApp({
        auth: { resource: RESOURCE, authorizationServers: [ISSUER], issuer: ISSUER, jwksUri: jwks.uri },
      });
    });
    afterAll(async () => {
      await app.close();
      await jwks.close();
    });

    it('accepts a token signed by the published key and refuses an HS256 one', async () => {
      const ok = await call(app, 'read_file', {}, bearer(jwks.sign({ scope: 'files:read' })));
      expect(ok.body.result.content[0].text).toBe('read by alice');
      const hs = await call(app, 'read_file', {}, bearer(hs256({ scope: 'files:read' })));
      expect(hs.status).toBe(401);
      const wrongAud = await call(
        app,
        'read_file',
        {},
        bearer(jwks.sign({ scope: 'files:read', aud: 'https://other/mcp' })),
      );
      expect(wrongAud.status).toBe(401);
    });
  });

  describe("an app's own passport strategy by name", () => {
    it('reads claims from req.user and still checks the audience', async () => {
      const app = await authApp({ auth: { resource: RESOURCE, authorizationServers: [ISSUER], strategy: 'app-jwt' } }, [
        AppAuthModule,
      ]);
      try {
        const token = hs256({ sub: 'bob', scope: 'files:read' }, 'app-secret-app-secret-app-secret');
        const ok = await call(app, 'read_file', {}, bearer(token));
        expect(ok.body.result.content[0].text).toBe('read by bob');
        const otherAud = hs256(
          { sub: 'bob', scope: 'files:read', aud: 'https://other/mcp' },
          'app-secret-app-secret-app-secret',
        );
        expect((await call(app, 'read_file', {}, bearer(otherAud))).status).toBe(401);
        expect((await call(app, 'read_file', {}, bearer(hs256({ scope: 'files:read' })))).status).toBe(401);
      } finally {
        await app.close();
      }
    });
  });

  describe('task scopes and caps per owner', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await authApp({ maxPerPrincipal: 1 });
    });
    afterAll(() => app.close());

    it('a task needs the scopes its tool required: refused with 403 without them, served with them', async () => {
      const full = bearer(hs256({ scope: 'files:read' }));
      const created = await call(app, 'read_file', { ms: 60_000 }, { ...full, caps: TASKS });
      const id = created.body.result.taskId;
      const lost = bearer(hs256({ scope: '' }));
      for (const [method, params] of [
        ['tasks/get', {}],
        ['tasks/update', { inputResponses: {} }],
        ['tasks/cancel', {}],
      ] as const) {
        const refused = await rpc(app, method, { taskId: id, ...params }, { ...lost, caps: TASKS });
        expect(refused.status).toBe(403);
        expect(refused.headers['www-authenticate']).toMatch(/error="insufficient_scope", scope="files:read"/);
      }
      expect((await getTask(app, id, full)).body.result.status).toBe('working');
      expect((await rpc(app, 'tasks/cancel', { taskId: id }, { ...full, caps: TASKS })).body.result.resultType).toBe(
        'complete',
      );
    });

    it('owner X at the cap does not affect owner Y', async () => {
      const x = bearer(hs256({ sub: 'x' }));
      const y = bearer(hs256({ sub: 'y' }));
      expect((await call(app, 'job', { ms: 60_000 }, { ...x, caps: TASKS })).body.result.resultType).toBe('task');
      expect((await call(app, 'job', { ms: 1 }, { ...x, caps: TASKS })).body.error.code).toBe(-32600);
      expect((await call(app, 'job', { ms: 60_000 }, { ...y, caps: TASKS })).body.result.resultType).toBe('task');
      // An optional tool at the cap runs in the request.
      const xs = bearer(hs256({ sub: 'x', scope: 'files:read' }));
      expect((await call(app, 'read_file', { ms: 1 }, { ...xs, caps: TASKS })).body.result).toMatchObject({
        resultType: 'complete',
        content: [{ text: 'read by x' }],
      });
    });
  });
});

export { SECRET };
