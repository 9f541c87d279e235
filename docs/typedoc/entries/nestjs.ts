/**
 * The module, its decorators, stores, guards and telemetry: `import { McpTasksModule } from '@mcp-tasks/nestjs'`.
 * Guides: docs/README.md.
 *
 * @module @mcp-tasks/nestjs
 */
export * from '../../../libs/mcp-tasks/src/index.js';
