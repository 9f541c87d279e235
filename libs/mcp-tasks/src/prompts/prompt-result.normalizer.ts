import { contentBlockProblem } from '../tools/content-block.js';
import { InvalidPromptResult } from './invalid-prompt-result.error.js';
import type { PromptMessage } from './prompt-message.js';

/** A `prompts/get` result (without the 2026-07-28 `resultType`). */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const ROLES: ReadonlySet<unknown> = new Set(['user', 'assistant']);

/**
 * What a prompt method returned, as its `prompts/get` result: a string is one user text message; a content block
 * one user message holding it; a `{ role, content }` one message; an array one message per item; `{ messages }` the
 * whole result (its `description` before `fallback`, the decorator's). Anything else throws `InvalidPromptResult`.
 */
export function toPromptResult(value: unknown, fallback?: string): PromptResult {
  if (isObject(value) && Array.isArray(value.messages)) {
    if (value.description !== undefined && typeof value.description !== 'string')
      throw new InvalidPromptResult('its description is not a string');
    const description = (value.description as string | undefined) ?? fallback;
    return { ...(description !== undefined ? { description } : {}), messages: messagesOf(value.messages) };
  }
  const messages = messagesOf(Array.isArray(value) ? value : [value]);
  return { ...(fallback !== undefined ? { description: fallback } : {}), messages };
}

const messagesOf = (items: unknown[]): PromptMessage[] => items.map((item, i) => messageOf(item, i));

function messageOf(item: unknown, index: number): PromptMessage {
  if (typeof item === 'string') return { role: 'user', content: { type: 'text', text: item } };
  if (isObject(item) && 'role' in item) {
    if (!ROLES.has(item.role)) throw new InvalidPromptResult(`message ${index}: role is not "user" or "assistant"`);
    const problem = contentBlockProblem(item.content);
    if (problem) throw new InvalidPromptResult(`message ${index}: its content is no content block (${problem})`);
    return item as unknown as PromptMessage;
  }
  const problem = contentBlockProblem(item);
  if (problem) throw new InvalidPromptResult(`message ${index} is no string, message or content block (${problem})`);
  return { role: 'user', content: item as PromptMessage['content'] };
}
