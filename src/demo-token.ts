import jwt from 'jsonwebtoken';
import { DEMO_ISSUER, DEMO_SCOPES, demoAddress, demoResource, demoSecret } from './demo-auth.js';

export interface DemoTokenClaims {
  sub: string;
  /** The secret the demo was started with (`MCP_JWT_SECRET`): there is no default one. */
  secret: string;
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
}

/** A development token the demo accepts in auth mode (`MCP_AUTH=1`) when it runs with `secret`. */
export function demoToken(port: number | string, c: DemoTokenClaims): string {
  const claims = {
    sub: c.sub,
    scope: c.scope ?? 'export deploy',
    azp: c.client ?? 'dev-cli',
    aud: c.aud ?? demoResource('127.0.0.1', port),
    ...(c.jti ? { jti: c.jti } : {}),
  };
  return jwt.sign(claims, c.secret, {
    algorithm: 'HS256',
    issuer: c.iss ?? DEMO_ISSUER,
    expiresIn: c.expiresIn ?? 3600,
  });
}

/** How long the token printed at start lasts (its secret dies with the process anyway). */
const NOTICE_HOURS = 12;

/**
 * What the demo prints at start in auth mode with a secret of its own making: a token with every demo scope
 * (the console's `mcp:admin` too), since nobody else can mint one. Nothing when `MCP_JWT_SECRET` is set (then
 * `npm run token` mints them) or auth is off.
 */
export function devTokenNotice(): string | undefined {
  if (process.env.MCP_AUTH !== '1') return undefined;
  const { secret, random } = demoSecret();
  if (!random) return undefined;
  const { host, port } = demoAddress();
  const token = demoToken(port, {
    sub: 'dev',
    scope: DEMO_SCOPES.join(' '),
    aud: demoResource(host, port),
    secret,
    expiresIn: NOTICE_HOURS * 3600,
  });
  return (
    `Auth: MCP_JWT_SECRET is not set, so this run signs with a random secret. Development token ` +
    `(sub dev, scopes ${DEMO_SCOPES.join(' ')}, ${NOTICE_HOURS} h): ${token}`
  );
}
