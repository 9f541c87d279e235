import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpEndpointController } from './http/mcp-endpoint.controller.js';
import { mcpRoutes } from './http/mcp-routes.js';
import { ProtectedResourceController } from './http/protected-resource.controller.js';
import {
  MCP_TASKS_ASYNC_OPTIONS_TYPE,
  MCP_TASKS_OPTIONS_TYPE,
  McpTasksConfigurableModule,
} from './mcp-tasks.module-definition.js';
import { mcpTasksExports, mcpTasksProviders } from './mcp-tasks.providers.js';

/**
 * Exposes `@McpTool` methods of the app's providers over MCP 2026-07-28 at `options.path`, running them as tasks
 * (the `io.modelcontextprotocol/tasks` extension) where their policy and the caller allow. Register it once per
 * MCP server: `forRoot(options)` or `forRootAsync({ imports, inject, useFactory | useClass | useExisting })`.
 */
@Module({})
export class McpTasksModule extends McpTasksConfigurableModule {
  static forRoot(options: typeof MCP_TASKS_OPTIONS_TYPE): DynamicModule {
    return withEndpoint(super.forRoot(options));
  }

  static forRootAsync(options: typeof MCP_TASKS_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withEndpoint(super.forRootAsync(options));
  }
}

/** A registration's providers, and controller classes of its own: two servers in one app get two paths. */
function withEndpoint(base: DynamicModule): DynamicModule {
  class Endpoint extends McpEndpointController {}
  class ResourceMetadata extends ProtectedResourceController {}
  return {
    ...base,
    imports: [...(base.imports ?? []), DiscoveryModule],
    controllers: [Endpoint, ResourceMetadata],
    providers: [...(base.providers ?? []), ...mcpTasksProviders, mcpRoutes(Endpoint, ResourceMetadata)],
    exports: [...(base.exports ?? []), ...mcpTasksExports],
  };
}
