import { Controller, type Provider, type Type } from '@nestjs/common';
import { MCP_ROUTES, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * Routes one registration's controller classes: the endpoint at `options.path`, the RFC 9728 metadata at the
 * well-known path and at its form suffixed with the endpoint's path. A provider, because `forRootAsync` options
 * are known only once Nest creates the module's instances, and Nest registers routes after that.
 */
export const mcpRoutes = (endpoint: Type, metadata: Type): Provider => ({
  provide: MCP_ROUTES,
  useFactory: ({ path }: ResolvedOptions): string => {
    Controller(path)(endpoint);
    Controller([WELL_KNOWN, `${WELL_KNOWN}${path}`])(metadata);
    return path;
  },
  inject: [MCP_TASKS_OPTIONS],
});
