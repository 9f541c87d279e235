import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
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
    return withProviders(super.forRoot(options));
  }

  static forRootAsync(options: typeof MCP_TASKS_ASYNC_OPTIONS_TYPE): DynamicModule {
    return withProviders(super.forRootAsync(options));
  }
}

/** A registration's providers: its routes are added on the HTTP platform by `McpRoutes`, one set per registration. */
function withProviders(base: DynamicModule): DynamicModule {
  return {
    ...base,
    imports: [...(base.imports ?? []), DiscoveryModule],
    providers: [...(base.providers ?? []), ...mcpTasksProviders],
    exports: [...(base.exports ?? []), ...mcpTasksExports],
  };
}
