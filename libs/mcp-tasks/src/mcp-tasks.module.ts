import { Controller, Inject, Module, type DynamicModule, type OnModuleInit } from '@nestjs/common';
import { DiscoveryModule, HttpAdapterHost } from '@nestjs/core';
import { bodyParserErrors } from './http/body-parser-errors.js';
import { McpEndpointController } from './http/mcp-endpoint.controller.js';
import { ProtectedResourceController } from './http/protected-resource.controller.js';
import { MCP_TASKS_OPTIONS } from './mcp-tasks.constants.js';
import {
  MCP_TASKS_ASYNC_OPTIONS_TYPE,
  MCP_TASKS_OPTIONS_TYPE,
  McpTasksConfigurableModule,
} from './mcp-tasks.module-definition.js';
import { mcpTasksExports, mcpTasksProviders } from './mcp-tasks.providers.js';
import type { ResolvedOptions } from './options/resolved-options.interface.js';

/**
 * Exposes `@McpTool` methods of the app's providers over MCP 2026-07-28 at `options.path`, running
 * them as tasks (the `io.modelcontextprotocol/tasks` extension) where their policy and the caller allow.
 */
@Module({})
export class McpTasksModule extends McpTasksConfigurableModule implements OnModuleInit {
  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
  ) {
    super();
  }

  static forRoot(options: typeof MCP_TASKS_OPTIONS_TYPE): DynamicModule {
    return complete(super.forRoot(options));
  }

  static forRootAsync(options: typeof MCP_TASKS_ASYNC_OPTIONS_TYPE): DynamicModule {
    return complete(super.forRootAsync(options));
  }

  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter?.getType() === 'express') adapter.use(bodyParserErrors(this.options.path));
  }
}

/**
 * Each registration gets its own controller classes: their paths come from that registration's
 * options and are stored on the class, so two servers in one app must not share one.
 */
function complete(base: DynamicModule): DynamicModule {
  class Endpoint extends McpEndpointController {}
  class Metadata extends ProtectedResourceController {}
  return {
    ...base,
    imports: [...(base.imports ?? []), DiscoveryModule],
    controllers: [Controller()(Endpoint) ?? Endpoint, Controller()(Metadata) ?? Metadata],
    providers: [...(base.providers ?? []), ...mcpTasksProviders],
    exports: [...(base.exports ?? []), ...mcpTasksExports],
  };
}
