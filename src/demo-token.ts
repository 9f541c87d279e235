import jwt from 'jsonwebtoken';
import { DEMO_ISSUER, DEMO_SECRET, demoResource } from './demo-auth.js';

export interface DemoTokenClaims {
  sub: string;
  /** Default: `export deploy`. */
  scope?: string;
  /** OAuth client (`azp`). Default: `dev-cli`. */
  client?: string;
  /** Default: the demo's resource on 127.0.0.1 and the port. */
  aud?: string | string[];
  iss?: string;
  /** A token id, so that otherwise equal tokens differ. */
  jti?: string;
  /** Seconds. Default: one hour. */
  expiresIn?: number;
  /** Sign with another secret (a token the demo must refuse). */
  secret?: string;
}

/** A development token the demo accepts in auth mode (`MCP_AUTH=1`): what `npm run token` prints. */
export function demoToken(port: number | string, c: DemoTokenClaims): string {
  const claims = {
    sub: c.sub,
    scope: c.scope ?? 'export deploy',
    azp: c.client ?? 'dev-cli',
    aud: c.aud ?? demoResource('127.0.0.1', port),
    ...(c.jti ? { jti: c.jti } : {}),
  };
  return jwt.sign(claims, c.secret ?? DEMO_SECRET, {
    algorithm: 'HS256',
    issuer: c.iss ?? DEMO_ISSUER,
    expiresIn: c.expiresIn ?? 3600,
  });
}
