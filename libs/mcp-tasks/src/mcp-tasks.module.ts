import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { authProviders } from './auth/auth.providers.js';
import { completionsProviders } from './completions/completions.providers.js';
import { discoveryProviders } from './discovery/discovery.providers.js';
import { ToolRegistry } from './discovery/tool.registry.js';
import { dispatcherProviders } from './dispatcher/dispatcher.providers.js';
import { gatewayProviders } from './gateway/gateway.providers.js';
import { guardsProviders } from './guards/guards.providers.js';
import { healthProviders } from './health/health.providers.js';
import { McpTasksHealthIndicator } from './health/mcp-tasks.health-indicator.js';
import { httpProviders } from './http/http.providers.js';
import { legacyProviders } from './legacy/legacy.providers.js';
import { MCP_TASKS_OPTIONS, TASK_EVENT_BUS, TASK_STORE } from './mcp-tasks.constants.js';
import {
  MCP_TASKS_ASYNC_OPTIONS_TYPE,
  MCP_TASKS_MODULE_OPTIONS,
  MCP_TASKS_OPTIONS_TYPE,
  McpTasksConfigurableModule,
} from './mcp-tasks.module-definition.js';
import { resolveOptions } from './options/resolve-options.js';
import { pipelineProviders } from './pipeline/pipeline.providers.js';
import { promptsProviders } from './prompts/prompts.providers.js';
import { McpResourceNotifier } from './resources/mcp-resource.notifier.js';
import { McpPromptNotifier } from './prompts/mcp-prompt.notifier.js';
import { ResourceRegistry } from './resources/resource.registry.js';
import { resourcesProviders } from './resources/resources.providers.js';
import { sdkProviders } from './sdk/sdk.providers.js';
import { taskStorageProviders } from './storage/task-storage.providers.js';
import { TaskRunner } from './tasks/task.runner.js';
import { tasksProviders } from './tasks/tasks.providers.js';
import { telemetryProviders } from './telemetry/telemetry.providers.js';

/**
 * Exposes `@McpTool` methods of the app's providers over MCP 2026-07-28 at `options.path`, running them as tasks
 * (the `io.modelcontextprotocol/tasks` extension) where their policy and the caller allow. Register it once per
 * MCP server: `forRoot(options)` or `forRootAsync({ imports, inject, useFactory | useClass | useExisting })`.
 * @publicApi
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

/** Every provider of one registration: the options with their defaults, then each feature's, in the request's flow. */
const providers: Provider[] = [
  { provide: MCP_TASKS_OPTIONS, useFactory: resolveOptions, inject: [MCP_TASKS_MODULE_OPTIONS] },
  ...taskStorageProviders,
  ...telemetryProviders,
  ...guardsProviders,
  ...discoveryProviders,
  ...resourcesProviders,
  ...pipelineProviders,
  ...tasksProviders,
  ...authProviders,
  ...gatewayProviders,
  ...promptsProviders,
  ...completionsProviders,
  ...dispatcherProviders,
  ...sdkProviders,
  ...legacyProviders,
  ...httpProviders,
  ...healthProviders,
];

/** What a registration exports to the app. */
const exported = [
  MCP_TASKS_OPTIONS,
  TASK_STORE,
  TASK_EVENT_BUS,
  ToolRegistry,
  ResourceRegistry,
  McpResourceNotifier,
  McpPromptNotifier,
  TaskRunner,
  McpTasksHealthIndicator,
];

/** A registration's providers: its routes are added on the HTTP platform by `McpRoutes`, one set per registration. */
function withProviders(base: DynamicModule): DynamicModule {
  return {
    ...base,
    imports: [...(base.imports ?? []), DiscoveryModule],
    providers: [...(base.providers ?? []), ...providers],
    exports: [...(base.exports ?? []), ...exported],
  };
}
