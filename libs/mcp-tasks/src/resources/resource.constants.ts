/** Metadata key of `@McpResource`. */
export const MCP_RESOURCE_METADATA = 'mcp-tasks:resource';
/** Metadata key of `@McpResourceTemplate`. */
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mcp-tasks:resource-template';
