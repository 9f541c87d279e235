import type { McpAuthOptions } from '@mcp-tasks/nestjs';

/** Secret of the demo's opt-in auth mode (`src/demo-token.ts` signs with it). Development only. */
export const DEMO_SECRET = process.env.MCP_JWT_SECRET ?? 'demo-secret-change-me-demo-secret-change-me';
export const DEMO_ISSUER = 'https://demo-issuer.invalid';

/** The demo's resource (the audience its tokens need) when it runs on `host`:`port`. */
export const demoResource = (host: string, port: number | string): string => `http://${host}:${port}/mcp`;

/** `MCP_AUTH=1 npm start`: bearer tokens required, for trying 401/403 and ownership by hand. */
export function demoAuth(): McpAuthOptions | undefined {
  if (process.env.MCP_AUTH !== '1') return undefined;
  return {
    resource: demoResource(process.env.HOST ?? '127.0.0.1', process.env.PORT ?? '3000'),
    authorizationServers: [DEMO_ISSUER],
    issuer: DEMO_ISSUER,
    secretOrKey: DEMO_SECRET,
    scopesSupported: ['export', 'deploy', 'mcp:admin'],
  };
}
