import jwt from 'jsonwebtoken';

/**
 * `n` distinct tokens for the demo's auth mode, with the claims and secret of `scripts/dev-token.mjs`
 * (plus a `jti`, so no two are alike): every request can carry a token the server has not verified yet.
 */
export function freshTokens(port: number, n: number): string[] {
  const secret = process.env.MCP_JWT_SECRET ?? 'demo-secret-change-me-demo-secret-change-me';
  const claims = { sub: 'bench', scope: 'export deploy', azp: 'dev-cli', aud: `http://127.0.0.1:${port}/mcp` };
  const options = { algorithm: 'HS256' as const, issuer: 'https://demo-issuer.invalid', expiresIn: '60m' as const };
  return Array.from({ length: n }, (_, i) => jwt.sign({ ...claims, jti: `bench-${i}` }, secret, options));
}
