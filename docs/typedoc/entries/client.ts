/**
 * The Node client: `connect(url, options)`, calls, tasks followed by polling or listening, questions answered.
 *
 * @module @mcp-tasks/client
 */
export * from '../../../libs/mcp-tasks-client/src/index.js';
