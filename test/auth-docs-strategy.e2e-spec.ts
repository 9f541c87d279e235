import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ForbiddenException, Injectable, Module, type INestApplication } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import request from 'supertest';
import { jwtConstants } from './fixtures/docs-auth/constants.js';
import { createDocsApp } from './fixtures/docs-auth/docs-app.js';
import { call, getTask, rpc, TASKS } from './support/mcp-request.js';
import { PLATFORM_MATRIX } from './support/platforms.js';
import { ISSUER, RESOURCE } from './support/tokens.js';

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });
const now = () => Math.floor(Date.now() / 1000);
/** A token the app's key signs, as JwtService would with these claims. */
const appToken = (claims: Record<string, unknown>) => jwt.sign({ iat: now(), ...claims }, jwtConstants.secret);

async function login(app: INestApplication, username: string, password: string): Promise<string> {
  const res = await request(app.getHttpServer()).post('/auth/login').send({ username, password });
  expect(res.status).toBe(200);
  return res.body.access_token as string;
}

/** The 401's reason, from the challenge (and the JSON-RPC message saying the same). */
function refusal(res: request.Response): string {
  expect(res.status).toBe(401);
  const quoted = /error_description="((?:[^"\\]|\\.)*)"/.exec(res.headers['www-authenticate'] ?? '')?.[1] ?? '';
  const description = quoted.replace(/\\(.)/g, '$1');
  expect(res.body.error).toMatchObject({ code: -32600, message: `Unauthorized: ${description}` });
  return description;
}

describe.each(PLATFORM_MATRIX)("the Nest docs' JWT app, its strategy unchanged (%s, fastPath %s)", (platform, fast) => {
  let app: INestApplication;
  beforeAll(async () => {
    // Tokens name this server as their audience: one line in the docs' JwtModule.register.
    app = await createDocsApp({}, { expiresIn: '60s', audience: RESOURCE }, platform, fast);
  });
  afterAll(() => app.close());

  it('a token from its login route calls a tool; the numeric sub is the subject', async () => {
    const token = await login(app, 'john', 'changeme');
    const res = await call(app, 'whoami', {}, bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.result.content).toEqual([{ type: 'text', text: '1 john' }]);
  });

  it('tasks belong to the user who started them', async () => {
    const john = bearer(await login(app, 'john', 'changeme'));
    const maria = bearer(await login(app, 'maria', 'guess'));
    const started = await call(app, 'long_note', { ms: 60_000 }, { ...john, caps: TASKS });
    const taskId = started.body.result.taskId as string;
    expect(typeof taskId).toBe('string');
    const foreign = await getTask(app, taskId, maria);
    expect(foreign.body.error).toMatchObject({ code: -32602, message: 'Task not found' });
    expect((await getTask(app, taskId, john)).body.result.status).toBe('working');
    await rpc(app, 'tasks/cancel', { taskId }, { ...john, caps: TASKS });
  });
});

describe("tokens as the docs' JwtService signs them: no aud", () => {
  it('are refused by default, the 401 naming the claim and both ways out', async () => {
    const app = await createDocsApp();
    try {
      const reason = refusal(await call(app, 'whoami', {}, bearer(await login(app, 'john', 'changeme'))));
      expect(reason).toBe(
        `the token names no audience (aud): give tokens an aud of "${RESOURCE}" (@nestjs/jwt: ` +
          'signOptions.audience), or set auth.requireAudience: false to accept tokens without one',
      );
    } finally {
      await app.close();
    }
  });

  describe('with auth.requireAudience: false', () => {
    let app: INestApplication;
    beforeAll(async () => {
      app = await createDocsApp({ requireAudience: false });
    });
    afterAll(() => app.close());

    it('are accepted, and a token naming another audience is still refused', async () => {
      const ok = await call(app, 'whoami', {}, bearer(await login(app, 'john', 'changeme')));
      expect(ok.body.result.content[0].text).toBe('1 john');
      const other = appToken({ sub: 1, username: 'john', aud: 'https://other.example/mcp' });
      expect(refusal(await call(app, 'whoami', {}, bearer(other)))).toBe(
        `the token was not issued for this resource: its aud must name "${RESOURCE}" (auth.audience)`,
      );
    });

    it('an expired token: the 401 names exp and when', async () => {
      const expired = appToken({ sub: 1, username: 'john', exp: now() - 60 });
      expect(refusal(await call(app, 'whoami', {}, bearer(expired)))).toMatch(
        /^the token has expired \(exp \d{4}-\d\d-\d\dT[\d:.]+Z\)$/,
      );
    });

    it('a user and token without a subject: the 401 names sub and auth.principal', async () => {
      const anonymous = appToken({ username: 'ghost' });
      expect(refusal(await call(app, 'whoami', {}, bearer(anonymous)))).toBe(
        "neither the strategy's user nor its token has a subject (sub, a string or a number): " +
          'return one from validate(), or set auth.principal to map the user',
      );
    });
  });
});

/** A strategy that authenticates by another header: the bearer token is then nothing it vouched for. */
@Injectable()
class HeaderKeyStrategy extends PassportStrategy(Strategy, 'header-key') {
  constructor() {
    super({ jwtFromRequest: ExtractJwt.fromHeader('x-app-token'), secretOrKey: jwtConstants.secret });
  }
  validate(payload: { sub: number; username: string }) {
    return { userId: payload.sub, username: payload.username };
  }
}
@Module({ providers: [HeaderKeyStrategy] })
class HeaderKeyModule {}

describe('claims are read from the bearer token only when the strategy read it', () => {
  it('a forged bearer token beside what the strategy verified gives nothing', async () => {
    const app = await createDocsApp({ strategy: 'header-key' }, undefined, 'express', undefined, [HeaderKeyModule]);
    try {
      const verified = appToken({ sub: 2, username: 'maria' });
      const forged = jwt.sign({ sub: 'admin', aud: RESOURCE, scope: 'notes:read' }, 'anyone-can-sign-this-one-x');
      const res = await call(
        app,
        'read_notes',
        {},
        { headers: { 'x-app-token': verified, authorization: `Bearer ${forged}` } },
      );
      expect(refusal(res)).toMatch(/^the token names no audience \(aud\)/);
    } finally {
      await app.close();
    }
  });
});

describe('auth.principal: the app says who its user is', () => {
  let app: INestApplication;
  beforeAll(async () => {
    app = await createDocsApp(
      {
        principal: (user: { username: string }) => {
          if (user.username === 'banned') throw new ForbiddenException('banned users may not call tools');
          if (user.username === 'broken') throw new Error('the roles table is gone');
          return user.username === 'maria' ? { subject: '' } : { subject: user.username, scopes: ['notes:read'] };
        },
      },
      { expiresIn: '60s', audience: RESOURCE },
    );
  });
  afterAll(() => app.close());

  it('gives the subject and scopes; a mapping without a subject is a 401 naming it', async () => {
    const john = await login(app, 'john', 'changeme');
    expect((await call(app, 'read_notes', {}, bearer(john))).body.result.content[0].text).toBe('notes of john');
    const maria = await login(app, 'maria', 'guess');
    expect(refusal(await call(app, 'read_notes', {}, bearer(maria)))).toBe(
      'auth.principal gave no subject (a non-empty string or a number) for this caller',
    );
  });

  it('a throw: an HttpException keeps its status, anything else is -32603', async () => {
    const banned = await call(app, 'read_notes', {}, bearer(appToken({ sub: 3, username: 'banned', aud: RESOURCE })));
    expect(banned.status).toBe(403);
    expect(banned.body.error).toMatchObject({ code: -32600, message: 'banned users may not call tools' });
    const broken = await call(app, 'read_notes', {}, bearer(appToken({ sub: 4, username: 'broken', aud: RESOURCE })));
    expect(broken.body.error).toEqual({ code: -32603, message: 'Internal error' });
  });
});

/** Why the app failed to start (an app that started is closed: the test then fails on its message). */
const startupError = (auth: Parameters<typeof createDocsApp>[0]): Promise<string> =>
  createDocsApp(auth).then(
    (app) => app.close().then(() => 'it started'),
    (err: Error) => err.message,
  );

describe('a misspelt auth.strategy', () => {
  it('fails startup, naming the strategies registered', async () => {
    expect(await startupError({ strategy: 'jtw' })).toMatch(
      /auth\.strategy "jtw" is not a registered passport strategy \(registered: "session", "jwt"[,)]/,
    );
  });

  it.each([
    ['requireAudience not a boolean', { requireAudience: 'no' }, /auth\.requireAudience must be a boolean/],
    ['principal not a function', { principal: 'sub' }, /auth\.principal must be a function/],
    [
      "requireAudience: false with the module's own strategy",
      { strategy: undefined, issuer: ISSUER, secretOrKey: jwtConstants.secret, requireAudience: false },
      /auth\.requireAudience: false applies to an app strategy \(auth\.strategy\) only/,
    ],
  ])('%s fails startup', async (_label, auth, message) => {
    expect(await startupError(auth as never)).toMatch(message);
  });
});
