import type { Principal } from '../common/principal.interface.js';

/**
 * What a completer (an `@McpCompletion` method) is told besides the value typed so far.
 * @publicApi
 */
export interface CompletionContext {
  /** What is completed: a prompt (`ref/prompt`, by name) or a resource template (`ref/resource`, its URI template). */
  ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string };
  /** The argument (a prompt's) or URI variable (a template's) being completed. */
  argument: string;
  /**
   * The other arguments the user has already filled in (the request's `context.arguments`), to narrow the values
   * by; `{}` when the client sent none.
   */
  arguments: Record<string, string>;
  /** Who asks. */
  principal: Principal;
  /** Aborted when the client goes away. */
  signal: AbortSignal;
}

/**
 * What a completer returns (or resolves to): the values, best first, or them with `total` (how many there are in
 * all) and `hasMore` (more than these exist). More than 100 values are cut to the first 100, with `hasMore: true`
 * and `total` the count returned (unless given).
 * @publicApi
 */
export type CompletionValues = string[] | { values: string[]; total?: number; hasMore?: boolean };
