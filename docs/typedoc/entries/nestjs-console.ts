/**
 * The operator console (nothing of it loads unless imported).
 *
 * @module @mcp-tasks/nestjs/console
 */
export * from '../../../libs/mcp-tasks/src/console/index.js';
