import type { Principal } from '../common/principal.interface.js';
import type {
  McpUpstreamAuth,
  McpUpstreamOptions,
  McpUpstreamTool,
} from '../options/mcp-upstream-options.interface.js';

/** One upstream's options with the defaults applied. */
export interface UpstreamConfig {
  name: string;
  url: string;
  /** Whether a tool of the upstream is served. */
  serves: (tool: McpUpstreamTool) => boolean;
  scopes: string[];
  auth: McpUpstreamAuth;
  toolsTtl: number;
  timeout: number;
}

export function upstreamConfig(o: McpUpstreamOptions): UpstreamConfig {
  const tools = o.tools ?? 'all';
  const serves =
    tools === 'all' ? () => true : Array.isArray(tools) ? (tool: McpUpstreamTool) => tools.includes(tool.name) : tools;
  return {
    name: o.name,
    url: o.url,
    serves,
    scopes: [...new Set(o.scopes ?? [])],
    auth: o.auth ?? { type: 'none' },
    toolsTtl: o.toolsTtl ?? 60_000,
    timeout: o.timeout ?? 60_000,
  };
}

/** The bearer token for a request made for `principal` (or for no caller: connecting, listing). */
export async function tokenFor(auth: McpUpstreamAuth, principal?: Principal): Promise<string | undefined> {
  if (auth.type === 'bearer') return auth.token;
  if (auth.type === 'exchange') return principal ? await auth.token(principal) : auth.serviceToken;
  return undefined;
}
