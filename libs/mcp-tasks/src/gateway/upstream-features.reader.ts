import type { SdkFeatureMethod, UpstreamClient, UpstreamRequestOptions } from './upstream-client.api.js';

type Entry = Record<string, unknown>;

/** What an upstream offers besides tools, as its lists describe it (its own URIs and names). */
export interface UpstreamFeatures {
  resources: Entry[];
  resourceTemplates: Entry[];
  prompts: Entry[];
  /** Whether it advertises `completions` (`server/discover`, or a 2025-era `initialize`). */
  completions: boolean;
}

export const NO_FEATURES: UpstreamFeatures = { resources: [], resourceTemplates: [], prompts: [], completions: false };

const MAX_PAGES = 64;
const METHOD_NOT_FOUND = -32601;

const isObject = (v: unknown): v is Entry => !!v && typeof v === 'object' && !Array.isArray(v);

/** One list: its method on each wire, the capability that offers it, its key, which entries are usable. */
interface ListSpec {
  key: keyof Omit<UpstreamFeatures, 'completions'>;
  method: string;
  sdk: SdkFeatureMethod;
  capability: string;
  valid: (e: Entry) => boolean;
}

const LISTS: ListSpec[] = [
  {
    key: 'resources',
    method: 'resources/list',
    sdk: 'listResources',
    capability: 'resources',
    valid: (r) => typeof r.uri === 'string',
  },
  {
    key: 'resourceTemplates',
    method: 'resources/templates/list',
    sdk: 'listResourceTemplates',
    capability: 'resources',
    valid: (t) => typeof t.uriTemplate === 'string',
  },
  {
    key: 'prompts',
    method: 'prompts/list',
    sdk: 'listPrompts',
    capability: 'prompts',
    valid: (p) => typeof p.name === 'string' && p.name !== '',
  },
];

/**
 * The upstream's resources, templates and prompts (all pages), either era: raw requests on the 2026-07-28 wire, the
 * SDK's methods on a 2025-era session (only the lists its `initialize` advertised). A list the upstream does not
 * have (`-32601`, or not advertised) is empty; a list that failed otherwise (unreachable, timed out, an error
 * answered, malformed) keeps what `last` had of it, so a passing failure does not hide its entries.
 */
export async function readUpstreamFeatures(
  client: UpstreamClient,
  { timeout, ...options }: UpstreamRequestOptions & { timeout: number },
  last: UpstreamFeatures,
): Promise<UpstreamFeatures> {
  const capabilities = client.legacy ? (client.sdk.getServerCapabilities() ?? {}) : undefined;
  const page = (spec: ListSpec, cursor?: string): Promise<Entry> => {
    const params = cursor ? { cursor } : {};
    if (!client.legacy) return client.request(spec.method, params, options);
    return client.sdk[spec.sdk](params, { signal: options.signal, timeout });
  };
  const read = async (spec: ListSpec): Promise<Entry[]> => {
    if (capabilities && !isObject(capabilities[spec.capability])) return [];
    return pages(spec, page).catch((err: unknown) =>
      (err as { code?: unknown })?.code === METHOD_NOT_FOUND ? [] : last[spec.key],
    );
  };
  const completions = capabilities
    ? Promise.resolve(isObject(capabilities.completions))
    : client.request('server/discover', {}, options).then(
        (r: { capabilities?: Entry }) => isObject(r?.capabilities?.completions),
        () => last.completions,
      );
  const [resources, resourceTemplates, prompts] = await Promise.all(LISTS.map(read));
  return {
    resources: resources!,
    resourceTemplates: resourceTemplates!,
    prompts: prompts!,
    completions: await completions,
  };
}

/** Every page of one list; a page that is not a list (no array under its key) fails the whole read. */
async function pages(spec: ListSpec, page: (spec: ListSpec, cursor?: string) => Promise<Entry>): Promise<Entry[]> {
  const all: Entry[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const result = await page(spec, cursor);
    const items = result?.[spec.key];
    if (!Array.isArray(items)) throw new Error(`${spec.method}: no ${spec.key} in the answer`);
    all.push(...items.filter((e): e is Entry => isObject(e) && spec.valid(e)));
    cursor = typeof result.nextCursor === 'string' && result.nextCursor ? result.nextCursor : undefined;
    if (!cursor) break;
  }
  return all;
}
