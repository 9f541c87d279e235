import type { McpToolOptions, TaskPolicy, TaskPolicyFn } from '../decorators/mcp-tool.decorator.js';

/** A discovered tool: where it lives and how it is described on the wire. */
export interface ToolDefinition {
  name: string;
  options: McpToolOptions;
  policy: TaskPolicy | TaskPolicyFn;
  inputSchema: Record<string, unknown>;
  /** `@RequiredScopes` of the method and its class; recorded on every task the tool starts. */
  requiredScopes: string[];
  /** The provider's instance (for a request-scoped provider, a stand-in of its class: calls resolve their own). */
  instance: object;
  /** The provider's injection token. */
  token: string | symbol | Function;
  /** The provider is request-scoped (or depends on `REQUEST`): each call gets an instance of its own. */
  requestScoped: boolean;
  methodName: string;
}
