import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import jwt from 'jsonwebtoken';
import { createHmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';
import { hsJwtVerifier } from './hs-jwt.verifier.js';
import { passportJwtVerifier } from './jwt-strategy.factory.js';
import type { TokenVerifier } from './token-verifier.interface.js';

const SECRET = 'spec-secret-0123456789-spec-secret';
const ISSUER = 'https://as.example';
const RESOURCE = 'https://api.example/mcp';
const BASE: McpAuthOptions = { authorizationServers: [ISSUER], issuer: ISSUER, secretOrKey: SECRET };
const now = () => Math.floor(Date.now() / 1000);
const b64 = (text: string) => Buffer.from(text).toString('base64url');
const requestWith = (authorization?: string) => ({ headers: { authorization } }) as IncomingMessage;

/** A compact JWS of exactly these header and payload texts, signed with HMAC-`hash` under `key`. */
function compact(header: unknown, payloadText: string, key = SECRET, hash = 'sha256'): string {
  const input = `${b64(typeof header === 'string' ? header : JSON.stringify(header))}.${b64(payloadText)}`;
  return `${input}.${createHmac(hash, key).update(input).digest('base64url')}`;
}

/** Accepted claims, or 'refused': what the authenticator goes on with (it refuses claims that are not an object). */
async function outcome(verify: TokenVerifier, authorization?: string): Promise<unknown> {
  const { user } = await verify(requestWith(authorization));
  return user && typeof user === 'object' && !Array.isArray(user) ? user : 'refused';
}

const ok = (claims: Record<string, unknown> = {}) =>
  jwt.sign({ sub: 'ann', iss: ISSUER, aud: RESOURCE, exp: now() + 600, ...claims }, SECRET);

describe('hsJwtVerifier', () => {
  it('takes only shared secrets with HMAC algorithms; the rest stays with passport-jwt', () => {
    expect(hsJwtVerifier(BASE)).toBeDefined();
    expect(hsJwtVerifier({ ...BASE, secretOrKey: Buffer.from(SECRET), algorithms: ['HS512', 'HS256'] })).toBeDefined();
    expect(hsJwtVerifier({ ...BASE, algorithms: ['HS256', 'RS256'] })).toBeUndefined();
    expect(hsJwtVerifier({ ...BASE, algorithms: ['toString'] })).toBeUndefined();
    expect(hsJwtVerifier({ ...BASE, secretOrKey: '-----BEGIN PUBLIC KEY-----\n…' })).toBeUndefined();
    expect(hsJwtVerifier({ ...BASE, secretOrKey: undefined, jwksUri: 'https://as.example/jwks' })).toBeUndefined();
  });

  it('accepts a good token and hands back its claims', async () => {
    const verify = hsJwtVerifier({ ...BASE, resource: RESOURCE })!;
    const token = ok({ scope: 'a b' });
    expect(await verify(requestWith(`Bearer ${token}`))).toEqual({ user: jwt.decode(token) });
    expect(await outcome(verify, `bearer   ${token} trailing words`)).toMatchObject({ sub: 'ann' });
  });

  it.each([
    ['no header', undefined, 'No auth token'],
    ['another scheme', `Basic ${b64('ann:pw')}`, 'No auth token'],
    ['two segments', `Bearer ${ok().split('.').slice(0, 2).join('.')}`, 'the token is malformed'],
    ['an empty signature', `Bearer ${ok().replace(/[^.]+$/, '')}`, 'the token signature does not verify'],
    ['another secret', `Bearer ${jwt.sign({ sub: 'a', iss: ISSUER }, 'another-secret-another-secret')}`, 'verify'],
    ['alg none', `Bearer ${jwt.sign({ sub: 'a', iss: ISSUER }, null as never, { algorithm: 'none' })}`, 'alg'],
    ['alg none, signed', `Bearer ${compact({ alg: 'none' }, '{"sub":"a"}')}`, 'algorithm not accepted'],
    ['HS384 (not in the default list)', `Bearer ${jwt.sign({ iss: ISSUER }, SECRET, { algorithm: 'HS384' })}`, 'alg'],
    ['expired', `Bearer ${ok({ exp: now() - 1 })}`, 'the token has expired'],
    ['exp as text', `Bearer ${compact({ alg: 'HS256' }, `{"iss":"${ISSUER}","exp":"9999999999"}`)}`, 'invalid exp'],
    ['not valid yet', `Bearer ${ok({ nbf: now() + 120 })}`, 'the token is not valid yet'],
    ['nbf as text', `Bearer ${compact({ alg: 'HS256' }, `{"iss":"${ISSUER}","nbf":"0"}`)}`, 'invalid nbf'],
    ['another issuer', `Bearer ${ok({ iss: 'https://mallory.example' })}`, 'accepted issuer'],
    ['another audience', `Bearer ${ok({ aud: 'https://other.example/mcp' })}`, 'not issued for this resource'],
    ['a payload that is not an object', `Bearer ${compact({ alg: 'HS256' }, '[1]')}`, 'carries no claims'],
    ['a signed null payload', `Bearer ${compact({ alg: 'HS256', typ: 'JWT' }, 'null')}`, 'carries no claims'],
  ])('refuses %s, saying why', async (_label, authorization, why) => {
    const verify = hsJwtVerifier({ ...BASE, resource: RESOURCE })!;
    const { user, info } = await verify(requestWith(authorization));
    expect(user).toBeUndefined();
    expect(String(info)).toContain(why === 'alg' ? 'algorithm not accepted' : why === 'verify' ? 'verify' : why);
  });

  it('reads payloads of any size, one after another, each as itself', async () => {
    const verify = hsJwtVerifier(BASE)!;
    for (const size of [10, 5_000, 3, 70_000, 40])
      expect(await outcome(verify, `Bearer ${ok({ note: 'é'.repeat(size) })}`)).toMatchObject({
        note: 'é'.repeat(size),
      });
  });

  it('refuses the same signature bytes spelled another way in base64url, as jws does', async () => {
    const verify = hsJwtVerifier(BASE)!;
    const token = ok();
    const last = token.at(-1)!;
    // The final character of a 32-byte signature carries 2 unused bits: flipping one keeps the bytes.
    const respelled = token.slice(0, -1) + b64Char(b64Index(last) ^ 1);
    expect(Buffer.from(respelled.split('.')[2], 'base64url')).toEqual(Buffer.from(token.split('.')[2], 'base64url'));
    expect(await outcome(verify, `Bearer ${respelled}`)).toBe('refused');
    expect(await outcome(verify, `Bearer ${token}`)).toMatchObject({ sub: 'ann' });
  });

  it('passport-jwt refuses a signed null payload too (jsonwebtoken throws on it)', async () => {
    const theirs = await passportJwtVerifier(BASE);
    const { user, info } = await theirs(requestWith(`Bearer ${compact({ alg: 'HS256', typ: 'JWT' }, 'null')}`));
    expect(user).toBeUndefined();
    expect(info).toBeInstanceOf(Error);
  });

  it('takes HS384 and HS512 when listed, and a Buffer secret', async () => {
    const verify = hsJwtVerifier({ ...BASE, secretOrKey: Buffer.from(SECRET), algorithms: ['HS384', 'HS512'] })!;
    for (const algorithm of ['HS384', 'HS512'] as const)
      expect(await outcome(verify, `Bearer ${jwt.sign({ iss: ISSUER }, SECRET, { algorithm })}`)).toMatchObject({
        iss: ISSUER,
      });
    expect(await outcome(verify, `Bearer ${jwt.sign({ iss: ISSUER }, SECRET)}`)).toBe('refused');
  });

  // The checks must be passport-jwt's, token by token: random headers, claims, signatures and damage.
  it.each([
    ['default algorithms, an audience', { ...BASE, resource: RESOURCE }],
    [
      'every HMAC algorithm, issuers and audiences as lists, no resource',
      {
        ...BASE,
        issuer: [ISSUER, 'https://b'],
        audience: ['https://x', RESOURCE],
        algorithms: ['HS256', 'HS384', 'HS512'],
      },
    ],
    ['no audience (the authenticator checks the resource)', { ...BASE, secretOrKey: Buffer.from(SECRET) }],
  ])('accepts and refuses exactly what passport-jwt does: %s', async (_label, options) => {
    const ours = hsJwtVerifier(options as McpAuthOptions)!;
    const theirs = await passportJwtVerifier(options as McpAuthOptions);
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(authorizations, async (authorization) => {
        const mine = await outcome(ours, authorization);
        expect(mine).toEqual(await outcome(theirs, authorization));
        if (mine !== 'refused') accepted++;
      }),
      { numRuns: 1_000 },
    );
    // Both sides of the line are exercised, not only refusals.
    expect(accepted).toBeGreaterThan(20);
  });
});

const B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const b64Index = (c: string) => B64URL.indexOf(c);
const b64Char = (i: number) => B64URL[i];

/** Mostly `good`, sometimes one of `bad`: a token passes only when every part is good. */
const mostly = (good: unknown, ...bad: unknown[]): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 6 * bad.length, arbitrary: fc.constant(good) }, fc.constantFrom(...bad));
const numericDate = (good: number[], bad: number[]) =>
  fc
    .oneof(
      { weight: 20, arbitrary: fc.constantFrom(...good, undefined) },
      fc.constantFrom(...bad),
      fc.constantFrom('1', null, true, [1]),
    )
    .map((o) => (typeof o === 'number' ? now() + o : o));
const claims = fc.record({
  sub: fc.constantFrom('ann', '', 5),
  iss: mostly(ISSUER, 'https://b', 'https://mallory', [ISSUER], 7, undefined),
  aud: fc.oneof(
    { weight: 18, arbitrary: fc.constantFrom(RESOURCE, [RESOURCE, 'https://z']) },
    fc.constantFrom('https://x', 'https://other', ['https://z'], [], 3, null, undefined),
  ),
  // Far from the second's edge: both verifiers read the clock.
  exp: numericDate([3600, 3600.5], [-3600, -2]),
  nbf: numericDate([-3600, 0], [3600]),
});
const payloadText = fc.oneof(
  { weight: 30, arbitrary: claims.map((c) => JSON.stringify(c)) },
  fc.constantFrom('[1,2]', '"text"', '42', 'null', 'not json', '{"iss":', ''),
);
const header = fc.oneof(
  {
    weight: 20,
    arbitrary: fc.record(
      {
        alg: mostly('HS256', 'HS384', 'HS512', 'none', 'RS256', 'hs256', 'toString', 5),
        typ: fc.constantFrom('JWT', 'at+jwt'),
      },
      { requiredKeys: ['alg'] },
    ),
  },
  // Header texts that are not a JSON object, signed all the same.
  fc.constantFrom('{"alg":"HS256"', '{"alg":"HS256"}x', 'null', '"HS256"', '["HS256"]', ''),
);
const HASH: Record<string, string> = { HS384: 'sha384', HS512: 'sha512' };
const token = fc
  .tuple(header, payloadText, mostly(SECRET, 'another-secret-another-secret'), fc.nat(40), fc.nat(50))
  .map(([h, p, key, damage, at]) => {
    const alg = String((h as { alg?: unknown }).alg);
    const t = compact(h, p, key as string, Object.hasOwn(HASH, alg) ? HASH[alg] : 'sha256');
    const i = at % t.length;
    if (damage > 12) return t;
    return [
      t,
      t.slice(0, -1),
      `${t}A`,
      t.replace(/[^.]+$/, ''),
      `${t}.x`,
      t.slice(0, i) + t.slice(i + 1),
      `${t.slice(0, i)}=${t.slice(i)}`,
      `${t.slice(0, i)}+${t.slice(i + 1)}`,
      `  ${t}`,
      t.slice(0, -1) + b64Char(b64Index(t.at(-1)!) ^ 1),
      t.split('.').reverse().join('.'),
      t.replace('.', '..'),
    ][damage];
  });
const authorizations = fc.oneof(
  { weight: 8, arbitrary: token.map((t) => `Bearer ${t}`) },
  token.map((t) => `bearer\t${t}`),
  token.map((t) => `Basic ${t}`),
  fc.constantFrom(undefined, '', 'Bearer', 'Bearer ', 'Bearer a.b.c', 'Bearer ..', 'Bearer a.b.'),
);
