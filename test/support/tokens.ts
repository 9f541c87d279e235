import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';

export const RESOURCE = 'http://127.0.0.1/mcp';
export const ISSUER = 'https://auth.example.test';
export const SECRET = 'test-secret-that-is-long-enough-for-hs256';

export interface Claims {
  sub?: string;
  scope?: string;
  azp?: string;
  aud?: string | string[];
  iss?: string;
  exp?: number;
  [k: string]: unknown;
}

const base = (c: Claims): Claims => ({ sub: 'alice', scope: '', azp: 'client-1', aud: RESOURCE, iss: ISSUER, ...c });

/** An HS256 token signed with `SECRET` (or another secret). */
export const hs256 = (c: Claims = {}, secret = SECRET): string =>
  jwt.sign(base(c), secret, { algorithm: 'HS256', noTimestamp: false });

/** An RSA key pair and a loopback JWKS endpoint serving its public half. */
export async function jwksServer(): Promise<{ uri: string; sign: (c?: Claims) => string; close: () => Promise<void> }> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...(publicKey as KeyObject).export({ format: 'jwk' }), kid: 'k1', use: 'sig', alg: 'RS256' };
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    sign: (c: Claims = {}) => jwt.sign(base(c), privateKey, { algorithm: 'RS256', keyid: 'k1' }),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
