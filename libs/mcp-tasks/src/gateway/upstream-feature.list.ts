import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { PromptRegistry } from '../prompts/prompt.registry.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { McpFeatures, type FeatureList } from '../sdk/mcp-features.js';
import { visibleTo } from '../sdk/scoped-list.js';
import type { UpstreamFeatures } from './upstream-features.reader.js';
import { UpstreamRegistry } from './upstream.registry.js';
import { servedUri } from './upstream-uri.js';

type Entry = Record<string, unknown>;
type ListKey = Exclude<keyof UpstreamFeatures, 'completions'>;

/** The name an upstream's entry is served under (`<upstream>_<name>`, as tools). */
const prefixed = (upstream: string, e: Entry): Entry =>
  typeof e.name === 'string' ? { ...e, name: `${upstream}_${e.name}` } : e;

/**
 * The upstreams' resources, resource templates and prompts in the lists, after the app's own (a local prompt of the
 * same name hides an upstream's; a local resource or template serving a served URI hides it): URIs as `servedUri`
 * makes them, names prefixed as tools are, each upstream's entries shown to callers its `scopes` allow. A capability
 * is advertised while some upstream lists something of it, with `listChanged` (see `UpstreamListChanges`).
 */
@Injectable()
export class UpstreamFeatureList implements OnModuleInit {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly registry: UpstreamRegistry,
    private readonly features: McpFeatures,
    private readonly prompts: PromptRegistry,
    private readonly resources: ResourceRegistry,
  ) {}

  onModuleInit(): void {
    if (!this.registry.active) return;
    // Their list changes are relayed (`UpstreamListChanges`); subscribing to an upstream resource is not.
    const advertised = (c: string) => (c === 'completions' ? {} : { listChanged: true });
    this.features.extend({ lists: () => this.lists(), advertised });
  }

  private lists(): Record<string, Record<string, FeatureList>> {
    const offered = (key: ListKey) => this.registry.connections().some((u) => u.features[key].length);
    const lists: Record<string, Record<string, FeatureList>> = {};
    if (offered('resources') || offered('resourceTemplates')) {
      const resources = (c: Principal) =>
        this.entries(c, 'resources', (u, r) => ({ ...prefixed(u, r), uri: servedUri(u, r.uri as string) })).filter(
          (r) => !this.resources.resolve(r.uri as string),
        );
      const templates = (c: Principal) =>
        this.entries(c, 'resourceTemplates', (u, t) => ({
          ...prefixed(u, t),
          uriTemplate: servedUri(u, t.uriTemplate as string),
        }));
      lists.resources = {
        'resources/list': (c, _, own = {}) => append(own, 'resources', resources(c)),
        'resources/templates/list': (c, _, own = {}) => append(own, 'resourceTemplates', templates(c)),
      };
    }
    if (offered('prompts')) {
      const prompts = (c: Principal) =>
        this.entries(c, 'prompts', prefixed).filter((p) => !this.prompts.get(p.name as string));
      lists.prompts = { 'prompts/list': (c, _, own = {}) => append(own, 'prompts', prompts(c)) };
    }
    // Completions have no list: the capability only, while an upstream advertises it.
    if (this.registry.connections().some((u) => u.features.completions)) lists.completions = {};
    return lists;
  }

  /** The entries of every upstream whose scopes the caller has, as served. */
  private entries(caller: Principal, key: ListKey, serve: (upstream: string, e: Entry) => Entry) {
    const upstreams = this.registry.connections().map((u) => ({ u, requiredScopes: u.config.scopes }));
    return visibleTo(upstreams, caller, this.options).flatMap(({ u }) => u.features[key].map((e) => serve(u.name, e)));
  }
}

const append = (own: Entry, key: string, more: Entry[]): Entry => ({
  ...own,
  [key]: [...(Array.isArray(own[key]) ? (own[key] as Entry[]) : []), ...more],
});
