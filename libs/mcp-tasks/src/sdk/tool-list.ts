import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { ToolRegistry } from '../discovery/tool.registry.js';
import { UpstreamRegistry } from '../gateway/upstream.registry.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { TASK_SUPPORT_META } from './sdk.constants.js';

type ListedTool = { requiredScopes: string[]; wire: Record<string, unknown>; legacy: Record<string, unknown> };

/** What `tools/list` shows a caller. */
@Injectable()
export class ToolList {
  private listed?: ListedTool[];
  /** The upstream tools as listed, with the registry version they were built from. */
  private proxied?: { version: number; tools: ListedTool[] };

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly registry: ToolRegistry,
    private readonly upstreams: UpstreamRegistry,
  ) {}

  /**
   * The tools the caller's scopes allow (all of them without authentication, or with `auth.listAllTools`);
   * `taskSupport`: with each tool's 2025-11-25 `execution.taskSupport` (a 2025-11-25 client, tasks on).
   */
  visibleTo(caller: Principal, taskSupport = false): Array<Record<string, unknown>> {
    const all = this.upstreams.active ? [...this.all(), ...this.upstreamTools()] : this.all();
    const pick = (t: ListedTool) => (taskSupport ? t.legacy : t.wire);
    if (!this.options.auth || this.options.auth.listAllTools) return all.map(pick);
    const granted = new Set(caller.scopes);
    return all.filter((t) => t.requiredScopes.every((s) => granted.has(s))).map(pick);
  }

  /** Built on first use: the registry is complete once the app has bootstrapped. */
  private all(): ListedTool[] {
    this.listed ??= this.registry.list().map((t) => {
      const wire = {
        name: t.name,
        ...(t.options.title ? { title: t.options.title } : {}),
        description: t.options.description,
        inputSchema: t.inputSchema,
        ...(t.outputSchema ? { outputSchema: t.outputSchema } : {}),
        ...(t.options.annotations ? { annotations: t.options.annotations } : {}),
      };
      // A policy chosen per call is advertised `optional`: the client may ask for a task, and gets one.
      const support = typeof t.policy === 'function' ? 'optional' : t.policy;
      const legacy = support === 'sync' ? wire : { ...wire, execution: { taskSupport: support } };
      // 2026-07-28's tools/list has no task-support field: the policy goes in `_meta` under this library's key,
      // with 2025-11-25's values, so clients can tell which tools run as tasks (docs/tools.md).
      const taskSupport = support === 'sync' ? 'forbidden' : support;
      const meta = this.options.tasks ? { _meta: { [TASK_SUPPORT_META]: taskSupport } } : {};
      return { requiredScopes: t.requiredScopes, wire: { ...wire, ...meta }, legacy };
    });
    return this.listed;
  }

  /** Served upstream tools after ours (a local tool of the same name hides one), rebuilt when a list was read. */
  private upstreamTools(): ListedTool[] {
    if (this.proxied?.version !== this.upstreams.version) {
      const tools = this.upstreams
        .list()
        .filter((s) => !this.registry.get(s.name))
        .map(({ name, tool, upstream, policy }) => ({
          requiredScopes: upstream.config.scopes,
          wire: { ...tool, name },
          // As a local tool: the upstream's own policy says whether a 2025-11-25 caller may ask for a task.
          legacy: policy === 'sync' ? { ...tool, name } : { ...tool, name, execution: { taskSupport: policy } },
        }));
      this.proxied = { version: this.upstreams.version, tools };
    }
    return this.proxied.tools;
  }
}
