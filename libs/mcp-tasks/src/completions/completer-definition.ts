import type { HandlerTarget } from '../pipeline/handler.invoker.js';
import type { McpCompletionOptions } from './mcp-completion.decorator.js';

/** A discovered completer: the method (a `HandlerTarget`) and what it completes. */
export interface CompleterDefinition extends HandlerTarget {
  options: McpCompletionOptions;
}

/** Where completers are kept: `prompt <name>` or `template <name>`, then the argument. */
export const completerKey = (ref: string, argument: string): string => `${ref}\u0000${argument}`;
