import type { TaskPolicy } from '../decorators/mcp-tool.decorator.js';
import type { McpUpstreamTool } from '../options/mcp-upstream-options.interface.js';
import type { UpstreamClient, UpstreamRequestOptions } from './upstream-client.api.js';
import { upstreamTaskPolicy } from './upstream-task-policy.js';

/** One upstream tool as read: its fields, and how it may run as a task there. */
export interface UpstreamToolEntry {
  tool: McpUpstreamTool;
  policy: TaskPolicy;
}

/** Pages of `tools/list` read at most: a server whose cursor never ends does not hold the gateway forever. */
const MAX_PAGES = 64;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Every tool of the upstream (all pages), as the fields the gateway serves; malformed entries are skipped. A 2025-era
 * upstream's tools run in the request (the gateway follows no task of such an upstream).
 */
export async function readUpstreamTools(
  client: UpstreamClient,
  { timeout, ...options }: UpstreamRequestOptions & { timeout: number },
): Promise<UpstreamToolEntry[]> {
  if (client.legacy) {
    // The SDK's own limit would be 60 s whatever the upstream's `timeout`.
    const listed = await client.sdk.listTools(undefined, { signal: options.signal, timeout });
    return toTools(listed.tools).map(({ tool }) => ({ tool, policy: 'sync' }));
  }
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

function toTools(raw: unknown[]): UpstreamToolEntry[] {
  const tools: UpstreamToolEntry[] = [];
  for (const t of raw) {
    if (!isObject(t) || typeof t.name !== 'string' || !t.name || !isObject(t.inputSchema)) continue;
    const tool: McpUpstreamTool = { name: t.name, inputSchema: t.inputSchema };
    if (typeof t.title === 'string') tool.title = t.title;
    if (typeof t.description === 'string') tool.description = t.description;
    if (isObject(t.outputSchema)) tool.outputSchema = t.outputSchema;
    if (isObject(t.annotations)) tool.annotations = t.annotations;
    tools.push({ tool, policy: upstreamTaskPolicy(t) });
  }
  return tools;
}
