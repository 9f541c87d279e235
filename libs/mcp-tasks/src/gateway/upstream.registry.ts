import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { TaskPolicy } from '../decorators/mcp-tool.decorator.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { McpUpstreamTool } from '../options/mcp-upstream-options.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { loadUpstreamClient } from './upstream-client.api.js';
import { upstreamConfig } from './upstream.config.js';
import { UpstreamConnection } from './upstream.connection.js';
import { UpstreamListChanges } from './upstream-list.changes.js';
import { splitServedUri } from './upstream-uri.js';

/** An upstream tool as served here. */
export interface ServedUpstreamTool {
  /** `<upstream>_<tool>`. */
  name: string;
  upstream: UpstreamConnection;
  tool: McpUpstreamTool;
  /** How it may run as a task upstream, as the upstream lists it (`sync` when it does not say). */
  policy: TaskPolicy;
}

/**
 * The `upstreams` option at run time: loads `@mcp-tasks/client` (only when there are upstreams), connects each
 * upstream in the background, and resolves served names (`files_read`) to an upstream and its tool.
 */
@Injectable()
export class UpstreamRegistry implements OnModuleInit, OnApplicationShutdown {
  private readonly upstreams = new Map<string, UpstreamConnection>();
  private served = new Map<string, ServedUpstreamTool>();
  /** Served upstream prompts by `<upstream>_<prompt>`: the upstream, and the prompt as it lists it. */
  private prompts = new Map<string, { upstream: UpstreamConnection; prompt: Record<string, unknown> }>();
  /** Bumped each time an upstream's tool list was read, so lists built from it know to rebuild. */
  version = 0;
  /** Settles once the upstreams are set up (they connect in the background after that). */
  ready: Promise<void> = Promise.resolve();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly changes: UpstreamListChanges,
  ) {}

  get active(): boolean {
    return this.options.upstreams.length > 0;
  }

  onModuleInit(): Promise<void> {
    this.ready = this.setUp();
    return this.ready;
  }

  private async setUp(): Promise<void> {
    if (!this.active) return;
    const api = await loadUpstreamClient();
    for (const options of this.options.upstreams) {
      const connection = new UpstreamConnection(upstreamConfig(options), api, this.options.server, () =>
        this.rebuild(),
      );
      this.upstreams.set(connection.name, connection);
      connection.start();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.upstreams.values()].map((u) => u.close()));
  }

  /** The upstream of that name, if configured. */
  upstream(name: string): UpstreamConnection | undefined {
    return this.upstreams.get(name);
  }

  /** The served upstream tool of that (prefixed) name, if any. */
  find(name: string): ServedUpstreamTool | undefined {
    return this.served.get(name);
  }

  /** Every served upstream tool, upstream by upstream in configuration order. */
  list(): ServedUpstreamTool[] {
    return [...this.served.values()];
  }

  /** Every upstream, in configuration order. */
  connections(): UpstreamConnection[] {
    return [...this.upstreams.values()];
  }

  /** The served upstream prompt of that (prefixed) name, if any. */
  prompt(name: string): { upstream: UpstreamConnection; prompt: Record<string, unknown> } | undefined {
    return this.prompts.get(name);
  }

  /** The upstream a served URI names (see `servedUri`), and the URI as that upstream knows it. */
  resource(uri: string): { upstream: UpstreamConnection; uri: string } | undefined {
    const split = splitServedUri(uri);
    const upstream = split && this.upstreams.get(split.upstream);
    return upstream && { upstream, uri: split.uri };
  }

  private rebuild(): void {
    const served = new Map<string, ServedUpstreamTool>();
    for (const upstream of this.upstreams.values())
      for (const { tool, policy } of upstream.served) {
        const name = `${upstream.name}_${tool.name}`;
        served.set(name, { name, upstream, tool, policy });
      }
    this.served = served;
    const prompts = new Map<string, { upstream: UpstreamConnection; prompt: Record<string, unknown> }>();
    for (const upstream of this.upstreams.values())
      for (const prompt of upstream.features.prompts)
        prompts.set(`${upstream.name}_${String(prompt.name)}`, { upstream, prompt });
    this.prompts = prompts;
    this.version++;
    this.changes.read(this.connections());
  }
}
