import { describe, expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { setTimeout as sleep } from 'node:timers/promises';
import { createAuthApp } from './fixtures/auth-app.js';
import { call } from './support/mcp-request.js';
import { hs256, ISSUER, RESOURCE } from './support/tokens.js';

const APP_SECRET = 'counting-secret-counting-secret-counting';
const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

/** Counts how often a token is really verified. */
const verifications = { count: 0 };

@Injectable()
class CountingStrategy extends PassportStrategy(Strategy, 'counting-jwt') {
  constructor() {
    super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: APP_SECRET, algorithms: ['HS256'] });
  }
  validate(payload: Record<string, unknown>): Record<string, unknown> {
    verifications.count++;
    return payload;
  }
}
@Module({ providers: [CountingStrategy] })
class CountingModule {}

const appWith = (cacheTtl?: number) =>
  createAuthApp({ auth: { resource: RESOURCE, authorizationServers: [ISSUER], strategy: 'counting-jwt', cacheTtl } }, [
    CountingModule,
  ]);

describe('auth.cacheTtl: verified tokens remembered', () => {
  it('a token is verified on first and second use, then served from the cache; another token is verified', async () => {
    const app = await appWith(60_000);
    try {
      const token = hs256({ sub: 'bob', scope: 'files:read' }, APP_SECRET);
      verifications.count = 0;
      for (let i = 0; i < 5; i++)
        expect((await call(app, 'read_file', {}, bearer(token))).body.result.content[0].text).toBe('read by bob');
      expect(verifications.count).toBe(2);
      const other = hs256({ sub: 'carol', scope: 'files:read' }, APP_SECRET);
      expect((await call(app, 'read_file', {}, bearer(other))).body.result.content[0].text).toBe('read by carol');
      expect(verifications.count).toBe(3);
    } finally {
      await app.close();
    }
  });

  it('a cached token is not accepted past its exp', async () => {
    const app = await appWith(60_000);
    try {
      const token = hs256({ sub: 'bob', scope: 'files:read', exp: Math.floor(Date.now() / 1000) + 2 }, APP_SECRET);
      for (let i = 0; i < 3; i++) expect((await call(app, 'read_file', {}, bearer(token))).status).toBe(200);
      await sleep(2_100);
      const late = await call(app, 'read_file', {}, bearer(token));
      expect(late.status).toBe(401);
      expect(late.body.error.code).toBe(-32600);
    } finally {
      await app.close();
    }
  });

  it('cacheTtl 0 (the default for an app strategy): every request is verified', async () => {
    const app = await appWith(undefined);
    try {
      const token = hs256({ sub: 'bob', scope: 'files:read' }, APP_SECRET);
      verifications.count = 0;
      for (let i = 0; i < 4; i++) expect((await call(app, 'read_file', {}, bearer(token))).status).toBe(200);
      expect(verifications.count).toBe(4);
    } finally {
      await app.close();
    }
  });
});
