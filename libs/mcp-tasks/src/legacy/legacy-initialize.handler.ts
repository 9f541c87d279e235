import { Inject, Injectable } from '@nestjs/common';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { LegacyResourceSubscribeHandler } from './legacy-resource-subscribe.handler.js';
import { LegacySessions } from './legacy-session.js';
import { LegacyTaskListHandler } from './legacy-task-list.handler.js';
import { LEGACY_TASKS_CAPABILITY, SESSION_HEADER } from './legacy.constants.js';

const object = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * `initialize`: settles the version (the client's when supported, else 2025-11-25), opens a session — its
 * `Mcp-Session-Id` is sealed, so nothing is stored and any instance accepts it — and advertises `capabilities.tasks`
 * at 2025-11-25 when tasks are on (`list` only when the store can list by owner).
 */
@Injectable()
export class LegacyInitializeHandler implements LegacyMethodHandler {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly sessions: LegacySessions,
    private readonly list: LegacyTaskListHandler,
    private readonly features: McpFeatures,
    private readonly subscribe: LegacyResourceSubscribeHandler,
  ) {}

  serve(req: LegacyRequest, x: LegacyExchange): void {
    const reply = x.reply(req.id);
    const p = req.params;
    const info = p.clientInfo;
    if (typeof p.protocolVersion !== 'string' || !object(p.capabilities) || !object(info)) {
      return reply.error(RpcError.invalidParams('initialize needs protocolVersion, capabilities and clientInfo'));
    }
    if (typeof info.name !== 'string' || typeof info.version !== 'string') {
      return reply.error(RpcError.invalidParams('clientInfo needs a name and a version'));
    }
    const requested = p.protocolVersion;
    const version = SUPPORTED_PROTOCOL_VERSIONS.includes(requested) ? requested : LEGACY_PROTOCOL_VERSION;
    const [, token] = this.sessions.open(version, p.capabilities, info, x.principal.key);
    x.res.setHeader(SESSION_HEADER, token);
    const { server, tasks } = this.options;
    const { list, ...rest } = LEGACY_TASKS_CAPABILITY;
    const taskCapability = this.list.offered() ? { list, ...rest } : rest;
    const features = this.features.capabilities();
    reply.result({
      protocolVersion: version,
      capabilities: {
        tools: {},
        // Resources, prompts, completions: only what the app has.
        ...features,
        // This era's resources/subscribe (McpResourceNotifier sends the updates): for the app's own resources only —
        // a gateway's upstream resources are not subscribable through it.
        ...(features.resources && this.subscribe.offered()
          ? { resources: { ...features.resources, subscribe: true } }
          : {}),
        // `ctx.log` messages, filtered by `logging/setLevel`.
        logging: {},
        ...(tasks && version === LEGACY_PROTOCOL_VERSION ? { tasks: taskCapability } : {}),
      },
      serverInfo: { name: server.name, version: server.version },
      ...(server.instructions ? { instructions: server.instructions } : {}),
    });
  }
}
