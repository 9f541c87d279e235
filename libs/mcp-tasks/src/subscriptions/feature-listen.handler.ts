import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';
import type { ServerResponse } from 'node:http';
import type { Principal } from '../common/principal.interface.js';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { MCP_TASKS_OPTIONS, META } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { SSE_HEADERS, sseMessage } from '../protocol/sse.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { visibleTo } from '../sdk/scoped-list.js';
import { featureChanged, notificationOf, type FeatureChanged } from './feature-change.js';
import { FeatureRejoinSignal } from './feature-rejoin.signal.js';
import { MAX_LISTEN_URIS } from './subscriptions.constants.js';

const KEEP_ALIVE_MS = 15_000;

/** What of a listen's filter the server honours (the acknowledgement echoes it). */
export interface FeatureFilter {
  resourcesListChanged?: true;
  promptsListChanged?: true;
  resourceSubscriptions?: string[];
}

/** What `stream` reads of the request (an `McpRequest`). */
type ListenCall = { id: string | number; principal: Principal; params: Record<string, any> };

/**
 * `subscriptions/listen` for resources and prompts: acknowledges what the server honours — a list change of a
 * feature the app has, updates of the URIs the caller may read (others dropped silently, as if unknown) — then
 * sends the matching changes announced on any instance (the notifiers publish them on the bus) — and, after the bus
 * re-joined (what was announced meanwhile was lost), every change its filter names, as having happened for all we
 * know. Honouring nothing, it answers the request's result after the acknowledgement.
 */
@Injectable()
export class FeatureListenHandler implements BeforeApplicationShutdown {
  private readonly open = new Map<ServerResponse, string | number>();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly features: McpFeatures,
    private readonly resources: ResourceRegistry,
    private readonly rejoins: FeatureRejoinSignal,
  ) {}

  async stream(req: ListenCall, res: ServerResponse): Promise<void> {
    const filter = this.honoured(req.params.notifications ?? {}, req.principal);
    const meta = { [META.subscriptionId]: req.id };
    res.writeHead(200, SSE_HEADERS);
    res.write(
      sseMessage({
        method: 'notifications/subscriptions/acknowledged',
        params: { _meta: meta, notifications: filter },
      }),
    );
    if (Object.keys(filter).length === 0) {
      res.end(sseMessage({ id: req.id, result: { resultType: 'complete', _meta: meta } }));
      return;
    }
    const send = (e: FeatureChanged) => {
      if (!accepts(filter, e) || res.writableEnded || res.destroyed) return;
      const { method, params } = notificationOf(e);
      res.write(sseMessage({ method, params: { ...params, _meta: meta } }));
    };
    const stops = [
      this.bus.subscribe((e) => {
        if (e.type === 'feature-changed') send(e);
      }),
      this.rejoins.onRejoin(() => everyChange(filter).forEach(send)),
    ];
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
    this.open.set(res, req.id);
    res.once('close', () => {
      clearInterval(keepAlive);
      for (const stop of stops) stop();
      this.open.delete(res);
    });
  }

  /** A stopping server closes each stream with the listen request's result, as the spec asks. */
  beforeApplicationShutdown(): void {
    for (const [res, id] of this.open) {
      if (res.writableEnded || res.destroyed) continue;
      res.end(sseMessage({ id, result: { resultType: 'complete', _meta: { [META.subscriptionId]: id } } }));
    }
    this.open.clear();
  }

  /** Throws `-32602` for a malformed `resourceSubscriptions`, before anything is written. */
  private honoured(asked: Record<string, unknown>, caller: Principal): FeatureFilter {
    const filter: FeatureFilter = {};
    if (asked.resourcesListChanged === true && this.features.has('resources')) filter.resourcesListChanged = true;
    if (asked.promptsListChanged === true && this.features.has('prompts')) filter.promptsListChanged = true;
    const uris = asked.resourceSubscriptions;
    if (uris === undefined) return filter;
    if (!Array.isArray(uris) || uris.some((u) => typeof u !== 'string'))
      throw RpcError.invalidParams('notifications.resourceSubscriptions must be an array of URIs');
    if (uris.length > MAX_LISTEN_URIS)
      throw RpcError.invalidParams(`notifications.resourceSubscriptions may name at most ${MAX_LISTEN_URIS} URIs`);
    const readable = [...new Set(uris as string[])].filter((uri) => this.mayRead(uri, caller));
    if (readable.length > 0) filter.resourceSubscriptions = readable;
    return filter;
  }

  /** A URI the app serves and whose `@RequiredScopes` the caller has (as `resources/list` decides). */
  private mayRead(uri: string, caller: Principal): boolean {
    const found = this.resources.resolve(uri);
    return !!found && visibleTo([found.resource], caller, this.options).length === 1;
  }
}

const accepts = (filter: FeatureFilter, e: FeatureChanged): boolean =>
  e.change === 'resource'
    ? !!filter.resourceSubscriptions?.includes(e.uri!)
    : e.change === 'resources'
      ? !!filter.resourcesListChanged
      : !!filter.promptsListChanged;

/** Every change `filter` accepts: what its listener may have missed while the bus was away. */
const everyChange = (filter: FeatureFilter): FeatureChanged[] => [
  ...(filter.resourcesListChanged ? [featureChanged('resources')] : []),
  ...(filter.promptsListChanged ? [featureChanged('prompts')] : []),
  ...(filter.resourceSubscriptions ?? []).map((uri) => featureChanged('resource', uri)),
];
