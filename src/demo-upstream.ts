import type { McpUpstreamOptions } from '@mcp-tasks/nestjs';

/**
 * `MCP_UPSTREAM_URL=http://host:port/mcp npm start`: the demo also serves that MCP server's tools, prefixed
 * `upstream_` (a gateway); `MCP_UPSTREAM_TOKEN` is sent to it as a static bearer token.
 */
export function demoUpstreams(): McpUpstreamOptions[] | undefined {
  const url = process.env.MCP_UPSTREAM_URL;
  if (!url) return undefined;
  const token = process.env.MCP_UPSTREAM_TOKEN;
  return [{ name: 'upstream', url, auth: token ? { type: 'bearer', token } : { type: 'none' } }];
}
