import type { HandlerTarget } from '../pipeline/handler.invoker.js';
import type { McpPromptOptions } from './mcp-prompt.decorator.js';
import type { PromptArgument } from './prompt-arguments.factory.js';

/** A discovered prompt: the method that makes it (a `HandlerTarget`), how `prompts/list` shows it, who may get it. */
export interface PromptDefinition extends HandlerTarget {
  name: string;
  options: McpPromptOptions;
  /** From its `args` DTO. */
  arguments: PromptArgument[];
  /** `@RequiredScopes` of the method and its class: `prompts/list` shows it only to callers that have them. */
  requiredScopes: string[];
}
