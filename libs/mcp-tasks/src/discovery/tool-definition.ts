import type { McpToolOptions, TaskPolicy, TaskPolicyFn } from '../decorators/mcp-tool.decorator.js';

/** A discovered tool: where it lives and how it is described on the wire. */
export interface ToolDefinition {
  name: string;
  options: McpToolOptions;
  policy: TaskPolicy | TaskPolicyFn;
  inputSchema: Record<string, unknown>;
  /** `@RequiredScopes` of the method and its class; recorded on every task the tool starts. */
  requiredScopes: string[];
  instance: object;
  methodName: string;
}
