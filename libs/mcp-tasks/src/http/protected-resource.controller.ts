import { Controller, Get, Inject, NotFoundException } from '@nestjs/common';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';

/**
 * RFC 9728 protected-resource metadata, at the well-known path and at its form suffixed with the endpoint's
 * path, where MCP clients look first (each registration routes a subclass, see `mcp-routes.ts`). 404 when the
 * endpoint has no `auth`.
 */
@Controller()
export class ProtectedResourceController {
  constructor(@Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions) {}

  @Get()
  metadata(): Record<string, unknown> {
    const auth = this.options.auth;
    if (!auth) throw new NotFoundException();
    return {
      resource: auth.resource,
      authorization_servers: auth.authorizationServers,
      ...(auth.scopesSupported ? { scopes_supported: auth.scopesSupported } : {}),
      bearer_methods_supported: ['header'],
    };
  }
}
