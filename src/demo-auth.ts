import type { McpAuthOptions } from '@mcp-tasks/nestjs';
import { randomBytes } from 'node:crypto';

export const DEMO_ISSUER = 'https://demo-issuer.invalid';
/** The demo's scopes; the development token it prints carries them all. */
export const DEMO_SCOPES = ['export', 'deploy', 'mcp:admin'];

/** The demo's resource (the audience its tokens need) when it runs on `host`:`port`. */
export const demoResource = (host: string, port: number | string): string =>
  `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;

/** Where the demo listens: `HOST` and `PORT` (default 127.0.0.1:3000). */
export const demoAddress = () => ({ host: process.env.HOST ?? '127.0.0.1', port: process.env.PORT ?? '3000' });

/** Whether only this machine can reach `host` (a name that is not `localhost` may resolve anywhere). */
export const isLoopback = (host: string): boolean =>
  host === 'localhost' || /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/.test(host);

let generated: string | undefined;

/**
 * The HS256 secret of the demo's auth mode: `MCP_JWT_SECRET`, else — on loopback only — a random one made at
 * start, which nobody else knows (the demo prints a token signed with it: see `devTokenNotice`). The demo never
 * signs with a secret written down anywhere: anyone could mint tokens, console admin included.
 */
export function demoSecret(): { secret: string; random: boolean } {
  const set = process.env.MCP_JWT_SECRET;
  if (set) return { secret: set, random: false };
  const { host } = demoAddress();
  if (!isLoopback(host)) {
    // Before Nest starts: one clear line, not a stack trace.
    process.stderr.write(
      `Demo: MCP_AUTH=1 with HOST=${host} (reachable from other machines) needs MCP_JWT_SECRET, the HS256 secret ` +
        'its tokens are signed with (e.g. MCP_JWT_SECRET=$(openssl rand -base64 32)); not starting\n',
    );
    process.exit(1);
  }
  return { secret: (generated ??= randomBytes(32).toString('base64url')), random: true };
}

/**
 * `MCP_AUTH=1 npm start`: bearer tokens required, for trying 401/403 and ownership by hand. The resource (the
 * audience tokens need) is `http://HOST:PORT/mcp`, `MCP_RESOURCE` when set, or — `MCP_RESOURCE=derived` — the URL
 * each request was sent to, on a host the app allows (loopback names, or `MCP_ALLOWED_HOSTS`).
 */
export function demoAuth(): McpAuthOptions | undefined {
  if (process.env.MCP_AUTH !== '1') return undefined;
  const { host, port } = demoAddress();
  const resource = process.env.MCP_RESOURCE;
  return {
    ...(resource === 'derived' ? {} : { resource: resource || demoResource(host, port) }),
    authorizationServers: [DEMO_ISSUER],
    issuer: DEMO_ISSUER,
    secretOrKey: demoSecret().secret,
    scopesSupported: DEMO_SCOPES,
  };
}
