import jwt from 'jsonwebtoken';
import { DEMO_ISSUER, DEMO_SECRET } from '../../../src/demo-auth.js';

export interface TokenClaims {
  sub: string;
  scope?: string;
  /** OAuth client (`azp`). */
  client?: string;
  /** Audience; default the demo's resource for `port`. */
  aud?: string | string[];
  iss?: string;
  expiresIn?: number;
  secret?: string;
}

/** The demo's resource (its auth audience) when it runs with PORT=`port`. */
export const demoResource = (port: number): string => `http://127.0.0.1:${port}/mcp`;

/** A token the demo in auth mode (MCP_AUTH=1) accepts, like `npm run token` mints. */
export function demoToken(port: number, c: TokenClaims): string {
  return jwt.sign(
    { sub: c.sub, scope: c.scope ?? 'export deploy', azp: c.client ?? 'dev-cli', aud: c.aud ?? demoResource(port) },
    c.secret ?? DEMO_SECRET,
    { algorithm: 'HS256', issuer: c.iss ?? DEMO_ISSUER, expiresIn: c.expiresIn ?? 3600 },
  );
}
