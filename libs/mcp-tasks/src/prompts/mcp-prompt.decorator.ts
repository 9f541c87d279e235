import { SetMetadata } from '@nestjs/common';
import { MCP_PROMPT_METADATA } from './prompt.constants.js';

/**
 * Options of `@McpPrompt`.
 * @publicApi
 */
export interface McpPromptOptions {
  /** The prompt's name on the wire (`prompts/get`'s `name`); unique in the server: a duplicate fails startup. */
  name: string;
  /**
   * A human-readable name clients show.
   * @default none
   */
  title?: string;
  /**
   * What the prompt is for, shown in `prompts/list`.
   * @default none
   */
  description?: string;
  /**
   * A class-validator DTO of the prompt's arguments (strings on the wire: a number needs `@Type(() => Number)`).
   * Its properties are the `arguments` of `prompts/list` — `required` unless `@IsOptional()`, each `description`
   * from an `@JSONSchema({ description })` on the property — and `prompts/get`'s arguments are validated against it
   * after the guards, before the method runs: a failure is `-32602` naming each failing property.
   * @default no arguments (any sent, an object of strings, are passed on as they are)
   */
  args?: new (...args: any[]) => object;
}

/**
 * Exposes a provider (or controller) method as an MCP prompt. The method is called as `(args, ctx)` (or with
 * `@ToolArgs()` / `@ToolCtx()` / `@Body()` … parameters) through Nest's pipeline — `@RequiredScopes` first, then the
 * app's and its own guards, interceptors, pipes, filters — and returns the prompt's messages: a string (one user
 * message), a content block (one user message holding it), a `PromptMessage`, an array of any of these, or a whole
 * `{ description?, messages }` result. `ctx` may ask the client for input (`ctx.elicit`, …): an MRTR round on
 * 2026-07-28, a question on the request's stream on the 2025 revisions.
 * @publicApi
 */
export const McpPrompt = (options: McpPromptOptions): MethodDecorator => SetMetadata(MCP_PROMPT_METADATA, options);
