import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { McpTasksModule } from '@mcp-tasks/nestjs';
import { McpTasksConsoleModule } from '@mcp-tasks/nestjs/console';
import { createAuthApp } from './fixtures/auth-app.js';
import { beyondLoopback, OUTSIDE_HOST } from './support/beyond-loopback.js';
import { call } from './support/mcp-request.js';
import { createPlatformApp, PLATFORM_MATRIX, PLATFORMS } from './support/platforms.js';
import { hs256, ISSUER, SECRET } from './support/tokens.js';

/** Another resource server whose tokens the same issuer mints: what an attacker holds a token for. */
const OTHER = 'other-server.example';
const ALLOWED = 'mcp.example';
const METADATA = ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'];
/** Auth without `resource`: it is taken from each request. */
const auth = { authorizationServers: [ISSUER], issuer: ISSUER, secretOrKey: SECRET };

/** Headers of a request sent with `host` as its Host, carrying a token minted for `aud`. */
const sentTo = (host: string, aud: string, more: Record<string, string> = {}) => ({
  headers: { host, authorization: `Bearer ${hs256({ aud, scope: 'files:read' })}`, ...more },
});
const metadata = (target: INestApplication, path: string, headers: Record<string, string>) =>
  request(target.getHttpServer()).get(path).set(headers);

const recorder = (errors: string[]): LoggerService => ({
  log: () => undefined,
  warn: () => undefined,
  error: (message: unknown) => void errors.push(String(message)),
});

describe.each(PLATFORM_MATRIX)('a resource taken from the request (%s, fastPath %s)', (platform, fastPath) => {
  describe('beyond loopback, with auth and neither auth.resource nor allowedHosts', () => {
    let app: INestApplication;
    let outside: ReturnType<typeof beyondLoopback>;
    const errors: string[] = [];
    beforeAll(async () => {
      app = await createAuthApp({ auth, fastPath }, [], [], platform, OUTSIDE_HOST);
      app.useLogger(recorder(errors));
      outside = beyondLoopback(app);
    });
    afterAll(() => app.close());

    it('refuses a token minted for another resource server, sent with that server’s name as Host', async () => {
      const res = await call(outside, 'read_file', {}, { ...sentTo(OTHER, `http://${OTHER}/mcp`), id: 'replay' });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 'replay', error: { code: -32600 } });
      expect(res.body.error.message).toMatch(/^Forbidden: .*auth\.resource.*allowedHosts/);
      expect(res.body.result).toBeUndefined();
    });

    it('refuses its own address too: nothing tells it which names are its own', async () => {
      const own = `${OUTSIDE_HOST}:${outside.port}`;
      const res = await call(outside, 'read_file', {}, sentTo(own, `http://${own}/mcp`));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe(-32600);
    });

    it('the metadata routes refuse to name a resource for it', async () => {
      for (const path of METADATA) {
        const res = await metadata(outside, path, { host: OTHER });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
        expect(res.body.error.message).toMatch(/auth\.resource.*allowedHosts/);
        expect(res.body.resource).toBeUndefined();
      }
    });

    it('logs one ERROR naming auth.resource and allowedHosts (not one per request)', async () => {
      await call(outside, 'read_file', {}, sentTo(OTHER, `http://${OTHER}/mcp`));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/auth\.resource.*allowedHosts/);
    });
  });

  describe('beyond loopback, with allowedHosts', () => {
    let app: INestApplication;
    let outside: INestApplication;
    beforeAll(async () => {
      app = await createAuthApp({ auth, fastPath, allowedHosts: [ALLOWED] }, [], [], platform, OUTSIDE_HOST);
      outside = beyondLoopback(app);
    });
    afterAll(() => app.close());

    it('serves an allowed host: its tokens are accepted, its metadata names it', async () => {
      const res = await call(outside, 'read_file', {}, sentTo(ALLOWED, `http://${ALLOWED}/mcp`));
      expect(res.status).toBe(200);
      expect(res.body.result.content[0].text).toBe('read by alice');
      for (const path of METADATA) {
        const meta = await metadata(outside, path, { host: ALLOWED });
        expect(meta.status).toBe(200);
        expect(meta.body).toMatchObject({ resource: `http://${ALLOWED}/mcp`, authorization_servers: [ISSUER] });
      }
    });

    it('refuses any other host, on the endpoint and on the metadata routes', async () => {
      const res = await call(outside, 'read_file', {}, sentTo(OTHER, `http://${OTHER}/mcp`));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe(-32600);
      for (const path of METADATA) expect((await metadata(outside, path, { host: OTHER })).status).toBe(403);
    });

    it('takes only a host name from Host: a path smuggled after an allowed name is refused', async () => {
      // The resource would have been http://mcp.example/tenant-b/mcp: another server's on the same host.
      const smuggled = `${ALLOWED}/tenant-b`;
      const res = await call(outside, 'read_file', {}, sentTo(smuggled, `http://${smuggled}/mcp`));
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe(-32600);
      expect((await metadata(outside, METADATA[0], { host: smuggled })).status).toBe(403);
    });
  });

  describe('beyond loopback, behind a trusted proxy', () => {
    let app: INestApplication;
    let outside: INestApplication;
    beforeAll(async () => {
      const options = { auth, fastPath, trustProxy: true, allowedHosts: [ALLOWED] };
      app = await createAuthApp(options, [], [], platform, OUTSIDE_HOST);
      outside = beyondLoopback(app);
    });
    afterAll(() => app.close());

    it('the forwarded host must be allowed: the allowed one is served, another is refused', async () => {
      const proxied = { 'x-forwarded-host': ALLOWED, 'x-forwarded-proto': 'https' };
      const ok = await call(outside, 'read_file', {}, sentTo('10.0.0.7:3000', `https://${ALLOWED}/mcp`, proxied));
      expect(ok.status).toBe(200);
      expect(ok.body.result.content[0].text).toBe('read by alice');
      const forged = { 'x-forwarded-host': OTHER, 'x-forwarded-proto': 'https' };
      const refused = await call(outside, 'read_file', {}, sentTo(ALLOWED, `https://${OTHER}/mcp`, forged));
      expect(refused.status).toBe(403);
      expect((await metadata(outside, METADATA[0], { host: ALLOWED, ...forged })).status).toBe(403);
    });

    it('a forwarded scheme other than http or https names no resource', async () => {
      const odd = { 'x-forwarded-host': ALLOWED, 'x-forwarded-proto': 'ftp' };
      const res = await call(outside, 'read_file', {}, sentTo(ALLOWED, `ftp://${ALLOWED}/mcp`, odd));
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/X-Forwarded-Proto/);
      expect((await metadata(outside, METADATA[0], { host: ALLOWED, ...odd })).status).toBe(403);
    });
  });
});

describe.each(PLATFORMS)('a resource taken from the request: the console (%s)', (platform) => {
  let app: INestApplication;
  let outside: INestApplication;
  beforeAll(async () => {
    const ref = await Test.createTestingModule({
      imports: [
        McpTasksModule.forRoot({ server: { name: 'files', version: '1' }, auth }),
        McpTasksConsoleModule.forRoot({ scope: 'mcp:admin' }),
      ],
    }).compile();
    app = createPlatformApp(ref, platform);
    await app.listen(0, OUTSIDE_HOST);
    outside = beyondLoopback(app);
  });
  afterAll(() => app.close());

  it('beyond loopback without allowedHosts, refuses an admin token for another server sent with its name', async () => {
    const admin = hs256({ aud: `http://${OTHER}/mcp`, scope: 'mcp:admin' });
    const res = await request(outside.getHttpServer())
      .get('/mcp-console/api/tasks')
      .set({ host: OTHER, authorization: `Bearer ${admin}` });
    expect(res.status).toBe(403);
    expect(JSON.stringify(res.body)).toMatch(/auth\.resource.*allowedHosts/);
    expect(res.body.tasks).toBeUndefined();
  });
});

describe('a resource taken from the request: options refused at startup', () => {
  it.each([
    ['trustProxy without allowedHosts', { auth, trustProxy: true }, /trustProxy.*allowedHosts.*auth\.resource/],
    ['an empty allowedHosts', { auth, allowedHosts: [] }, /allowedHosts must list at least one host name/],
    ['an allowedHosts entry with a scheme', { allowedHosts: ['https://mcp.example'] }, /allowedHosts.*https:\/\//],
    ['an allowedHosts entry with a port', { allowedHosts: ['mcp.example:443'] }, /allowedHosts.*mcp\.example:443/],
    ['an allowedHosts entry in capitals', { allowedHosts: ['MCP.example'] }, /allowedHosts.*MCP\.example/],
    ['an auth.resource that is not http(s)', { auth: { ...auth, resource: 'urn:mcp' } }, /auth\.resource.*urn:mcp/],
    ['an auth.resource with a fragment', { auth: { ...auth, resource: 'https://a.example/mcp#x' } }, /auth\.resource/],
  ])('%s', async (_label, options, message) => {
    await expect(createAuthApp(options as never)).rejects.toThrow(message);
  });
});
