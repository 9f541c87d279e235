import type { ContentBlock } from '../tools/content-block.js';

/**
 * One message of a prompt: who says it, and one content block (`text`, `image`, `audio`, `resource_link`,
 * `resource`).
 * @publicApi
 */
export interface PromptMessage {
  /** Who says it. */
  role: 'user' | 'assistant';
  /** What is said: one content block (`{ type: 'text', text }`, `imageContent(…)`, `resourceContent(…)`, …). */
  content: ContentBlock;
}

/**
 * What an `@McpPrompt` method may return (or resolve to): a string (one user text message), a content block (one
 * user message holding it), a `PromptMessage`, an array of any of these (one message each, in order), or the whole
 * `prompts/get` result, `{ description?, messages }` (its `description` replaces the decorator's).
 * @publicApi
 */
export type PromptReturn =
  | string
  | ContentBlock
  | PromptMessage
  | Array<string | ContentBlock | PromptMessage>
  | { description?: string; messages: Array<string | ContentBlock | PromptMessage> };
