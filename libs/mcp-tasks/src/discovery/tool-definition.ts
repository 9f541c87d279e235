import type { McpToolOptions, TaskPolicy, TaskPolicyFn } from '../decorators/mcp-tool.decorator.js';
import type { ResultShaping } from '../tools/tool-result.normalizer.js';
import type { ToolResume } from './resume-options.check.js';

/** A discovered tool: where it lives, how it is described on the wire, how its results are made. */
export interface ToolDefinition {
  name: string;
  options: McpToolOptions;
  policy: TaskPolicy | TaskPolicyFn;
  inputSchema: Record<string, unknown>;
  /** From `output`: what `structuredContent` holds. */
  outputSchema?: Record<string, unknown>;
  /** How its return value becomes its result (serializer options, the `output` DTO). */
  result: ResultShaping;
  /** `@RequiredScopes` of the method and its class; recorded on every task the tool starts. */
  requiredScopes: string[];
  /** The provider's instance (for a request-scoped provider, a stand-in of its class: calls resolve their own). */
  instance: object;
  /** The provider's injection token. */
  token: string | symbol | Function;
  /** The provider is request-scoped (or depends on `REQUEST`): each call gets an instance of its own. */
  requestScoped: boolean;
  methodName: string;
  /** From `resume` / `maxAttempts`: its tasks may run again elsewhere after their instance stops. */
  resume?: ToolResume;
}
