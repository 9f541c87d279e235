// Separate entry point (`@mcp-tasks/nestjs/console`): apps that do not mount the console never load it.
export { McpTasksConsoleModule } from './mcp-tasks-console.module.js';
export type { McpTasksConsoleOptions } from './mcp-tasks-console-options.interface.js';
export { LoopbackGuard } from './loopback.guard.js';
