import { ConfigurableModuleBuilder } from '@nestjs/common';
import type { McpTasksModuleOptions } from './options/mcp-tasks-options.interface.js';

export const {
  ConfigurableModuleClass: McpTasksConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_TASKS_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_TASKS_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_TASKS_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpTasksModuleOptions>()
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpTasksOptions')
  // `isGlobal: true`: the registration's exports (store, bus, options, registry, runner) reach every module.
  .setExtras({ isGlobal: false }, (definition, extras) => ({ ...definition, global: extras.isGlobal }))
  .build();
