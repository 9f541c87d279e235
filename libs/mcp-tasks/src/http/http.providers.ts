import type { Provider } from '@nestjs/common';
import { BodyParserErrors } from './body-parser-error.handler.js';
import { McpFastPath } from './fast-path.listener.js';
import { McpExchangeHandler } from './mcp-exchange.handler.js';
import { McpRoutes } from './mcp-routes.js';
import { ProtectedResource } from './protected-resource.js';

/** The endpoint: its routes on the platform, one HTTP exchange, the fast path, the RFC 9728 metadata. */
export const httpProviders: Provider[] = [
  McpExchangeHandler,
  McpRoutes,
  ProtectedResource,
  McpFastPath,
  BodyParserErrors,
];
