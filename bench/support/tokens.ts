import { demoToken } from '../../src/demo-token.js';

/** `n` distinct tokens for the demo's auth mode (each with its own `jti`): every request can carry a new one. */
export function freshTokens(port: number, n: number): string[] {
  return Array.from({ length: n }, (_, i) => demoToken(port, { sub: 'bench', jti: `bench-${i}` }));
}
