import { ConfigurableModuleBuilder, type ModuleMetadata } from '@nestjs/common';
import type { McpTasksConsoleOptions } from './mcp-tasks-console-options.interface.js';

export const {
  ConfigurableModuleClass: McpTasksConsoleConfigurableModule,
  MODULE_OPTIONS_TOKEN: MCP_CONSOLE_MODULE_OPTIONS,
  OPTIONS_TYPE: MCP_CONSOLE_OPTIONS_TYPE,
  ASYNC_OPTIONS_TYPE: MCP_CONSOLE_ASYNC_OPTIONS_TYPE,
} = new ConfigurableModuleBuilder<McpTasksConsoleOptions>()
  .setClassMethodName('forRoot')
  .setFactoryMethodName('createMcpTasksConsoleOptions')
  // `imports`: modules a guard class's dependencies come from (forRootAsync's factory sees them too).
  .setExtras({ imports: [] as NonNullable<ModuleMetadata['imports']> }, (def, extras) => ({
    ...def,
    imports: [...new Set([...(def.imports ?? []), ...extras.imports])],
  }))
  .build();
