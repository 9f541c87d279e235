/** Where `@McpPrompt` keeps its options on a method. */
export const MCP_PROMPT_METADATA = 'mcp-tasks:prompt';
