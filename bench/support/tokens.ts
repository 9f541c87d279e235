import { demoToken } from '../../src/demo-token.js';

/** `n` distinct tokens for the demo's auth mode (each with its own `jti`): every request can carry a new one. */
export function freshTokens(port: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => demoToken(port, { sub: 'bench', jti: `bench-${i}` }));
}

/** One token per owner (`sub` bench-owner-0 … n-1), each reused: `n` distinct callers, each under its own cap. */
export function ownerTokens(port: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => demoToken(port, { sub: `bench-owner-${i}` }));
}
