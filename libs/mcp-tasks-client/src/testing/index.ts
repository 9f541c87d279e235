export { createMcpTestClient, type McpTestClientOptions } from './mcp-test-client.factory.js';
export { loopbackUrl } from './loopback-url.js';
