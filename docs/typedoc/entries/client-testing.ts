/**
 * The Nest test helper: `createMcpTestClient(app)`.
 *
 * @module @mcp-tasks/client/testing
 */
export * from '../../../libs/mcp-tasks-client/src/testing/index.js';
