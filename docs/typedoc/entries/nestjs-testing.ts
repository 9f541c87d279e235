/**
 * The `TaskStore` contract suite, for people writing their own store.
 *
 * @module @mcp-tasks/nestjs/testing
 */
export * from '../../../libs/mcp-tasks/src/testing/index.js';
