import type { McpUpstreamTool } from '../options/mcp-upstream-options.interface.js';
import type { UpstreamClient, UpstreamRequestOptions } from './upstream-client.api.js';

/** Pages of `tools/list` read at most: a server whose cursor never ends does not hold the gateway forever. */
const MAX_PAGES = 64;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Every tool of the upstream (all pages), as the fields the gateway serves; malformed entries are skipped. */
export async function readUpstreamTools(
  client: UpstreamClient,
  { timeout, ...options }: UpstreamRequestOptions & { timeout: number },
): Promise<McpUpstreamTool[]> {
  // The SDK's own limit would be 60 s whatever the upstream's `timeout`.
  if (client.legacy) return toTools((await client.sdk.listTools(undefined, { signal: options.signal, timeout })).tools);
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = (await client.request('tools/list', cursor ? { cursor } : {}, options)) as Record<string, unknown>;
    if (Array.isArray(result.tools)) tools.push(...(result.tools as unknown[]));
    cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return toTools(tools);
}

function toTools(raw: unknown[]): McpUpstreamTool[] {
  const tools: McpUpstreamTool[] = [];
  for (const t of raw) {
    if (!isObject(t) || typeof t.name !== 'string' || !t.name || !isObject(t.inputSchema)) continue;
    const tool: McpUpstreamTool = { name: t.name, inputSchema: t.inputSchema };
    if (typeof t.title === 'string') tool.title = t.title;
    if (typeof t.description === 'string') tool.description = t.description;
    if (isObject(t.outputSchema)) tool.outputSchema = t.outputSchema;
    if (isObject(t.annotations)) tool.annotations = t.annotations;
    tools.push(tool);
  }
  return tools;
}
