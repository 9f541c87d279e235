/** Where `@McpCompletion` keeps its options on a method. */
export const MCP_COMPLETION_METADATA = 'mcp-tasks:completion';

/** The most values one `completion/complete` answer may carry (the spec's cap). */
export const MAX_COMPLETION_VALUES = 100;
