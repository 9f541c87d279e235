import type { McpTasksConsoleOptions } from '@mcp-tasks/nestjs/console';
import { LoopbackGuard } from '@mcp-tasks/nestjs/console';

/**
 * The demo's operator console at /mcp-console: with `MCP_AUTH=1`, bearer tokens carrying the `mcp:admin` scope
 * (the development token the demo prints at start has it; with `MCP_JWT_SECRET`, `npm run token -- --scope
 * mcp:admin`); without auth, requests from this machine only.
 */
export function demoConsole(): McpTasksConsoleOptions {
  const pollInterval = 1_000;
  return process.env.MCP_AUTH === '1'
    ? { path: '/mcp-console', scope: 'mcp:admin', pollInterval }
    : { path: '/mcp-console', guard: LoopbackGuard, pollInterval };
}
