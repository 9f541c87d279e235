import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createAuthApp } from './fixtures/auth-app.js';
import { call, rpc } from './support/mcp-request.js';
import { PLATFORMS } from './support/platforms.js';
import { reverseProxy } from './support/reverse-proxy.js';
import { hs256, ISSUER, SECRET } from './support/tokens.js';

const PUBLIC = 'mcp.example.test';
const RESOURCE = `https://${PUBLIC}/mcp`;
const METADATA = `https://${PUBLIC}/.well-known/oauth-protected-resource/mcp`;
/** Auth without `resource`: it is the URL each request was sent to. */
const auth = { authorizationServers: [ISSUER], issuer: ISSUER, secretOrKey: SECRET };
const via = (port: number) => ({ getHttpServer: () => `http://127.0.0.1:${port}` }) as unknown as INestApplication;
const bearer = (aud: string) => ({ headers: { authorization: `Bearer ${hs256({ aud, scope: 'files:read' })}` } });

describe.each(PLATFORMS)('behind a reverse proxy (%s)', (platform) => {
  describe('trustProxy: true', () => {
    let app: INestApplication;
    let proxy: Awaited<ReturnType<typeof reverseProxy>>;
    beforeAll(async () => {
      app = await createAuthApp({ auth, trustProxy: true, allowedHosts: [PUBLIC] }, [], [], platform);
      proxy = await reverseProxy((app.getHttpServer().address() as AddressInfo).port, PUBLIC);
    });
    afterAll(async () => {
      await proxy.close();
      await app.close();
    });

    it('advertises the public resource URL in challenges and metadata', async () => {
      const refused = await rpc(via(proxy.port), 'tools/list', {});
      expect(refused.status).toBe(401);
      expect(refused.headers['www-authenticate']).toBe(`Bearer resource_metadata="${METADATA}"`);
      const metadata = await request(`http://127.0.0.1:${proxy.port}`).get(new URL(METADATA).pathname);
      expect(metadata.body).toMatchObject({ resource: RESOURCE, authorization_servers: [ISSUER] });
    });

    it('accepts tokens minted for the public resource, and only those', async () => {
      const ok = await call(via(proxy.port), 'read_file', {}, bearer(RESOURCE));
      expect(ok.body.result.content[0].text).toBe('read by alice');
      const internal = await call(via(proxy.port), 'read_file', {}, bearer('http://127.0.0.1/mcp'));
      expect(internal.status).toBe(401);
    });

    it('checks the forwarded host: the public name passes, a direct request to the app does not', async () => {
      const direct = await call(app, 'read_file', {}, bearer(RESOURCE));
      expect(direct.status).toBe(403);
      expect(direct.body.error.code).toBe(-32600);
      const forged = await call(app, 'read_file', {}, { headers: { 'x-forwarded-host': 'evil.example' } });
      expect(forged.status).toBe(403);
    });
  });

  describe('trustProxy off (the default)', () => {
    let app: INestApplication;
    let proxy: Awaited<ReturnType<typeof reverseProxy>>;
    beforeAll(async () => {
      app = await createAuthApp({ auth, allowedHosts: [PUBLIC] }, [], [], platform);
      proxy = await reverseProxy((app.getHttpServer().address() as AddressInfo).port, PUBLIC);
    });
    afterAll(async () => {
      await proxy.close();
      await app.close();
    });

    it('ignores X-Forwarded-*: the proxied Host is not the public name, so it is refused', async () => {
      const res = await call(via(proxy.port), 'read_file', {}, bearer(RESOURCE));
      expect(res.status).toBe(403);
      expect(res.body.error.message).toMatch(/^Forbidden/);
    });
  });
});
