import type { UpstreamClient, UpstreamRequestOptions } from './upstream-client.api.js';

/** What an upstream offers besides tools, as its lists describe it (its own URIs and names). */
export interface UpstreamFeatures {
  resources: Array<Record<string, unknown>>;
  resourceTemplates: Array<Record<string, unknown>>;
  prompts: Array<Record<string, unknown>>;
  /** Whether its `server/discover` advertises `completions`. */
  completions: boolean;
}

export const NO_FEATURES: UpstreamFeatures = { resources: [], resourceTemplates: [], prompts: [], completions: false };

const MAX_PAGES = 64;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The upstream's resources, templates and prompts (all pages). A list the upstream does not answer (no such
 * capability: `-32601`, or any failure) contributes nothing. A 2025-era upstream contributes nothing: the gateway
 * forwards these methods on the 2026-07-28 wire only.
 */
export async function readUpstreamFeatures(
  client: UpstreamClient,
  options: UpstreamRequestOptions,
): Promise<UpstreamFeatures> {
  if (client.legacy) return NO_FEATURES;
  const [resources, resourceTemplates, prompts, completions] = await Promise.all([
    pages(client, 'resources/list', 'resources', options, (r) => typeof r.uri === 'string'),
    pages(client, 'resources/templates/list', 'resourceTemplates', options, (r) => typeof r.uriTemplate === 'string'),
    pages(client, 'prompts/list', 'prompts', options, (p) => typeof p.name === 'string' && p.name !== ''),
    client.request('server/discover', {}, options).then(
      (r: { capabilities?: Record<string, unknown> }) => isObject(r?.capabilities?.completions),
      () => false,
    ),
  ]);
  return { resources, resourceTemplates, prompts, completions };
}

async function pages(
  client: UpstreamClient,
  method: string,
  key: string,
  options: UpstreamRequestOptions,
  valid: (entry: Record<string, unknown>) => boolean,
): Promise<Array<Record<string, unknown>>> {
  const all: Array<Record<string, unknown>> = [];
  let cursor: string | undefined;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = (await client.request(method, cursor ? { cursor } : {}, options)) as Record<string, unknown>;
      const items = Array.isArray(result[key]) ? (result[key] as unknown[]) : [];
      all.push(...items.filter((e): e is Record<string, unknown> => isObject(e) && valid(e)));
      cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
      if (!cursor) break;
    }
  } catch {
    return [];
  }
  return all;
}
