import type { CanActivate, Provider, Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { BearerAuthenticator } from './auth/bearer.authenticator.js';
import { PrincipalResolver } from './auth/principal.resolver.js';
import { ResourceUrl } from './auth/resource-url.js';
import { ToolMetadataAccessor } from './discovery/tool-metadata.accessor.js';
import { ToolExplorer } from './discovery/tool.explorer.js';
import { ToolRegistry } from './discovery/tool.registry.js';
import { McpDispatcher } from './dispatcher/mcp.dispatcher.js';
import { METHOD_HANDLERS } from './dispatcher/methods.table.js';
import { TaskLookup } from './dispatcher/task.lookup.js';
import { SharedStoreWarning } from './tasks/shared-store.warning.js';
import { MirrorKeeper } from './gateway/mirror.keeper.js';
import { UpstreamRegistry } from './gateway/upstream.registry.js';
import { UpstreamTaskRelay } from './gateway/upstream-task.relay.js';
import { UpstreamToolCall } from './gateway/upstream-tool.call.js';
import { UpstreamToolPipeline } from './gateway/upstream-tool.pipeline.js';
import { McpScopesGuard } from './guards/mcp-scopes.guard.js';
import { TaskOwnershipGuard } from './guards/task-ownership.guard.js';
import { McpTasksHealthIndicator } from './health/mcp-tasks.health-indicator.js';
import { BodyParserErrors } from './http/body-parser-errors.js';
import { McpFastPath } from './http/fast-path.listener.js';
import { McpExchangeHandler } from './http/mcp-exchange.handler.js';
import { McpRoutes } from './http/mcp-routes.js';
import { ProtectedResource } from './http/protected-resource.js';
import { InputAnswerHandler } from './legacy/input-answer.handler.js';
import { InputDelivery } from './legacy/input-delivery.js';
import { LegacySessions } from './legacy/legacy-session.js';
import { LegacyStreams } from './legacy/legacy-streams.js';
import { LEGACY_METHOD_HANDLERS } from './legacy/legacy-methods.table.js';
import { LegacyRouter } from './legacy/legacy.router.js';
import { RequestCancels } from './legacy/request-cancels.js';
import { MCP_TASKS_OPTIONS, TASK_EVENT_BUS, TASK_STORE } from './mcp-tasks.constants.js';
import { MCP_TASKS_MODULE_OPTIONS } from './mcp-tasks.module-definition.js';
import { resolveOptions } from './options/resolve-options.js';
import type { ResolvedOptions } from './options/resolved-options.interface.js';
import { AppEnhancers } from './pipeline/app-enhancers.js';
import { NestPipelines } from './pipeline/nest-pipelines.js';
import { TaskGuards } from './pipeline/task-guards.js';
import { ToolInvoker } from './pipeline/tool.invoker.js';
import { SdkFallback } from './sdk/sdk-fallback.js';
import { SdkServerFactory } from './sdk/sdk-server.factory.js';
import { taskStorageProviders } from './storage/task-storage.providers.js';
import { ToolList } from './sdk/tool-list.js';
import { TaskRunner } from './tasks/task.runner.js';
import { TaskSweeper } from './tasks/task.sweeper.js';
import { McpTelemetryInterceptor } from './telemetry/mcp-telemetry.interceptor.js';
import { createTracing } from './telemetry/tracing.factory.js';
import { McpTracing } from './telemetry/tracing.js';

/** A guard built by Nest from the class the `guards` option names (so an app's subclass may inject), else ours. */
const guardProvider = (token: Type<CanActivate>, pick: (o: ResolvedOptions) => Type<CanActivate> | undefined) => ({
  provide: token,
  useFactory: (o: ResolvedOptions, ref: ModuleRef) => ref.create(pick(o) ?? token),
  inject: [MCP_TASKS_OPTIONS, ModuleRef],
});

/** Every provider of one `McpTasksModule` registration. */
export const mcpTasksProviders: Provider[] = [
  { provide: MCP_TASKS_OPTIONS, useFactory: resolveOptions, inject: [MCP_TASKS_MODULE_OPTIONS] },
  ...taskStorageProviders,
  { provide: McpTracing, useFactory: createTracing, inject: [MCP_TASKS_OPTIONS] },
  guardProvider(McpScopesGuard, (o) => o.guards.scopes),
  guardProvider(TaskOwnershipGuard, (o) => o.guards.ownership),
  ToolRegistry,
  ToolMetadataAccessor,
  ToolExplorer,
  NestPipelines,
  AppEnhancers,
  ToolInvoker,
  TaskGuards,
  TaskRunner,
  TaskSweeper,
  PrincipalResolver,
  ResourceUrl,
  BearerAuthenticator,
  UpstreamRegistry,
  UpstreamToolPipeline,
  UpstreamTaskRelay,
  MirrorKeeper,
  UpstreamToolCall,
  TaskLookup,
  // tools/call, tasks/*, listening: each method's handler, as the method table names it.
  ...METHOD_HANDLERS,
  McpDispatcher,
  ToolList,
  SdkServerFactory,
  SdkFallback,
  LegacySessions,
  // initialize, tools/call, tasks/* of the 2025 era: each method's handler, as the legacy method table names it.
  ...LEGACY_METHOD_HANDLERS,
  LegacyStreams,
  InputDelivery,
  InputAnswerHandler,
  RequestCancels,
  LegacyRouter,
  McpExchangeHandler,
  McpRoutes,
  ProtectedResource,
  McpFastPath,
  BodyParserErrors,
  McpTelemetryInterceptor,
  McpTasksHealthIndicator,
  SharedStoreWarning,
];

/** What a registration exports to the app. */
export const mcpTasksExports = [
  MCP_TASKS_OPTIONS,
  TASK_STORE,
  TASK_EVENT_BUS,
  ToolRegistry,
  TaskRunner,
  McpTasksHealthIndicator,
];
