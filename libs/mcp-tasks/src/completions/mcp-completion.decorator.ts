import { SetMetadata } from '@nestjs/common';
import { MCP_COMPLETION_METADATA } from './completion.constants.js';

/**
 * Options of `@McpCompletion`: which argument of which prompt or resource template the method completes. Exactly
 * one of `prompt` and `resourceTemplate`; a name that is no `@McpPrompt` / `@McpResourceTemplate` of the app, an
 * argument it does not declare, or a second completer for the same argument fails startup.
 * @publicApi
 */
export interface McpCompletionOptions {
  /** The `name` of the `@McpPrompt` whose argument this completes (`ref/prompt` requests). */
  prompt?: string;
  /** The `name` of the `@McpResourceTemplate` whose URI variable this completes (`ref/resource` requests). */
  resourceTemplate?: string;
  /** The prompt argument (a property of its `args` DTO) or the template's URI variable. */
  argument: string;
}

/**
 * Marks a provider (or controller) method as the completer of one prompt argument or resource template variable
 * (`completion/complete`): one method per argument. It is called as `(value, context)` — the text typed so far and a
 * `CompletionContext` (the other arguments filled in, the caller) — and returns `CompletionValues` (strings, best
 * first; at most 100 are sent). A caller is let through as a get of the prompt (or a read of the template)
 * would be — the app's guards, then that method's `@RequiredScopes` and guards: a caller who may not get the prompt
 * gets no completions for it — and the completer then runs through its own interceptors, pipes and filters (its
 * own guards are not run: the prompt's decide). In those interceptors `McpExecutionContext.call(ec)` names the prompt
 * (`prompt`) or template (`resource`), its `args` is the value typed and its `context` the `CompletionContext`.
 * The server advertises `completions` only when the app has a completer; an argument without one completes to no
 * values.
 * @publicApi
 */
export const McpCompletion = (options: McpCompletionOptions): MethodDecorator =>
  SetMetadata(MCP_COMPLETION_METADATA, options);
