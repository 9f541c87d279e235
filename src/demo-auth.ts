import type { McpAuthOptions } from '@mcp-tasks/nestjs';

/** Secret of the demo's opt-in auth mode; `npm run token` signs with the same one. Development only. */
export const DEMO_SECRET = process.env.MCP_JWT_SECRET ?? 'demo-secret-change-me-demo-secret-change-me';
export const DEMO_ISSUER = 'https://demo-issuer.invalid';

/** `MCP_AUTH=1 npm start`: bearer tokens required, for trying 401/403 and ownership by hand. */
export function demoAuth(): McpAuthOptions | undefined {
  if (process.env.MCP_AUTH !== '1') return undefined;
  const host = process.env.HOST ?? '127.0.0.1';
  const port = process.env.PORT ?? '3000';
  return {
    resource: `http://${host}:${port}/mcp`,
    authorizationServers: [DEMO_ISSUER],
    issuer: DEMO_ISSUER,
    secretOrKey: DEMO_SECRET,
    scopesSupported: ['export', 'deploy', 'mcp:admin'],
  };
}
