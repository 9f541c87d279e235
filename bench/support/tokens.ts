import { createHmac, randomBytes } from 'node:crypto';
import { demoToken } from '../../src/demo-token.js';

/** The secret this bench run starts the demo with (`MCP_JWT_SECRET`; the demo has no default one) and signs with. */
export const BENCH_JWT_SECRET = randomBytes(32).toString('base64url');

/**
 * `n` distinct tokens for the demo's auth mode (each with its own `jti`): every request can carry a new one.
 * One is signed by `demoToken`; the others are its claims with another `jti`, signed here (HS256). jsonwebtoken's
 * `sign` takes ~0.6 ms a token on these machines: the CPU phase's 200 000 took two minutes of the run.
 */
export function freshTokens(port: number, n: number): string[] {
  const [header, payload] = demoToken(port, { sub: 'bench', jti: 'bench-0', secret: BENCH_JWT_SECRET }).split('.');
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  return Array.from({ length: n }, (_, i) => {
    const body = Buffer.from(JSON.stringify({ ...claims, jti: `bench-${i}` })).toString('base64url');
    const signed = `${header}.${body}`;
    return `${signed}.${createHmac('sha256', BENCH_JWT_SECRET).update(signed).digest('base64url')}`;
  });
}

/** One token per owner (`sub` bench-owner-0 … n-1), each reused: `n` distinct callers, each under its own cap. */
export function ownerTokens(port: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => demoToken(port, { sub: `bench-owner-${i}`, secret: BENCH_JWT_SECRET }));
}
