import { Inject, Injectable } from '@nestjs/common';
import { insufficientScope } from '../auth/auth-challenge.error.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { resourceNotFound } from '../resources/resource-not-found.error.js';
import { ResourceSubscriptions } from '../resources/resource-subscriptions.js';
import { ResourceRegistry } from '../resources/resource.registry.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';

/**
 * `resources/subscribe` and `resources/unsubscribe` of the 2025 revisions (2026-07-28 has `subscriptions/listen`
 * instead): a URI some resource or template serves, which the caller's scopes let it read (else 403, as a read
 * would be), followed or no longer followed by the session; answered `{}`. An unknown URI is `-32002`. Without a
 * session there is nothing to follow it by: answered `{}`, nothing kept. Offered only when the app has resources.
 */
@Injectable()
export class LegacyResourceSubscribeHandler implements LegacyMethodHandler {
  constructor(
    private readonly registry: ResourceRegistry,
    private readonly subscriptions: ResourceSubscriptions,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {}

  offered(): boolean {
    return this.registry.size > 0;
  }

  serve(req: LegacyRequest, x: LegacyExchange): void {
    const reply = x.reply(req.id);
    const uri = req.params.uri;
    if (typeof uri !== 'string') return reply.error(RpcError.invalidParams('params.uri must be a string'));
    const found = this.registry.resolve(uri);
    if (!found) return reply.error(resourceNotFound(uri, req.version));
    const needed = found.resource.requiredScopes;
    const auth = this.options.auth;
    if (auth && needed.some((s) => !req.principal.scopes.includes(s))) {
      throw insufficientScope(req.principal.resource ?? auth.resource!, needed);
    }
    const session = req.session?.id;
    if (session && req.method === 'resources/unsubscribe') this.subscriptions.remove(session, uri);
    else if (session && !this.subscriptions.add(session, uri)) {
      return reply.error(RpcError.invalidParams('This session follows too many resources; unsubscribe from one'));
    }
    reply.result({});
  }
}
