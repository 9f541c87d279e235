import { Inject, Module, type DynamicModule, type OnModuleInit, type Provider } from '@nestjs/common';
import { Controller } from '@nestjs/common';
import { DiscoveryModule, HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { BearerAuthenticator } from './auth/bearer.authenticator.js';
import { McpScopesGuard } from './auth/mcp-scopes.guard.js';
import { TaskOwnershipGuard } from './auth/task-ownership.guard.js';
import { McpDispatcher } from './dispatcher/mcp.dispatcher.js';
import { TaskMethodsHandler } from './dispatcher/task-methods.handler.js';
import { ToolCallHandler } from './dispatcher/tool-call.handler.js';
import { ToolMetadataAccessor } from './discovery/tool-metadata.accessor.js';
import { ToolExplorer } from './discovery/tool.explorer.js';
import { ToolRegistry } from './discovery/tool.registry.js';
import { createTaskEventBus } from './events/task-event-bus.factory.js';
import { DataSourceTaskStore } from './store/data-source-task.store.js';
import { TaskEventBus } from './events/task-event-bus.interface.js';
import { bodyParserErrors } from './http/body-parser-errors.js';
import { McpEndpointController } from './http/mcp-endpoint.controller.js';
import { McpFastPath } from './http/fast-path.listener.js';
import { McpEndpoint } from './http/mcp.endpoint.js';
import { ProtectedResourceController } from './http/protected-resource.controller.js';
import { SdkBridge } from './http/sdk-bridge.js';
import { ToolInvoker } from './invoker/tool.invoker.js';
import {
  MCP_TASKS_ASYNC_OPTIONS_TYPE,
  MCP_TASKS_MODULE_OPTIONS,
  MCP_TASKS_OPTIONS_TYPE,
  McpTasksConfigurableModule,
} from './options/mcp-tasks.module-definition.js';
import { isStore, MCP_TASKS_OPTIONS, resolveOptions, type ResolvedOptions } from './options/resolved-options.js';
import { PrincipalResolver } from './principal/principal.resolver.js';
import { TaskStore } from './store/task-store.interface.js';
import { TaskRunner } from './tasks/task.runner.js';
import { TaskSweeper } from './tasks/task.sweeper.js';
import { TaskListenHandler } from './subscriptions/task-listen.handler.js';
import { McpTelemetryInterceptor } from './telemetry/mcp-telemetry.interceptor.js';
import { createTracing } from './telemetry/tracing.factory.js';
import { McpTracing } from './telemetry/tracing.js';

const providers: Provider[] = [
  { provide: MCP_TASKS_OPTIONS, useFactory: resolveOptions, inject: [MCP_TASKS_MODULE_OPTIONS] },
  {
    provide: TaskStore,
    useFactory: (o: ResolvedOptions, ref: ModuleRef) =>
      isStore(o.store) ? o.store : DataSourceTaskStore.open(ref, o.store.dataSource),
    inject: [MCP_TASKS_OPTIONS, ModuleRef],
  },
  { provide: TaskEventBus, useFactory: createTaskEventBus, inject: [MCP_TASKS_OPTIONS, TaskStore] },
  { provide: McpTracing, useFactory: createTracing, inject: [MCP_TASKS_OPTIONS] },
  ToolRegistry,
  ToolMetadataAccessor,
  ToolExplorer,
  ToolInvoker,
  TaskRunner,
  TaskSweeper,
  PrincipalResolver,
  BearerAuthenticator,
  // The guards are built through ModuleRef so an app can hand in subclasses (`guards` option).
  {
    provide: McpScopesGuard,
    useFactory: (o: ResolvedOptions, ref: ModuleRef) => ref.create(o.guards.scopes ?? McpScopesGuard),
    inject: [MCP_TASKS_OPTIONS, ModuleRef],
  },
  {
    provide: TaskOwnershipGuard,
    useFactory: (o: ResolvedOptions, ref: ModuleRef) => ref.create(o.guards.ownership ?? TaskOwnershipGuard),
    inject: [MCP_TASKS_OPTIONS, ModuleRef],
  },
  TaskMethodsHandler,
  ToolCallHandler,
  McpDispatcher,
  SdkBridge,
  McpEndpoint,
  McpFastPath,
  TaskListenHandler,
  McpTelemetryInterceptor,
];

const exported = [MCP_TASKS_OPTIONS, TaskStore, TaskEventBus, ToolRegistry, TaskRunner];

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
    providers: [...(base.providers ?? []), ...providers],
    exports: [...(base.exports ?? []), ...exported],
  };
}
