import type { CallToolResult } from '../protocol/wire.types.js';
import { ToolError } from './tool-error.js';

/**
 * Turns what a tool method returned into a `CallToolResult`: a string becomes one text block, an
 * array is the content, an object with `content`/`structuredContent` is taken as a result, and any
 * other object becomes `structuredContent` with its JSON as text.
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (value === undefined || value === null) return { content: [] };
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (Array.isArray(value)) return { content: value as CallToolResult['content'] };
  if (typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (Array.isArray(obj.content) || 'structuredContent' in obj || 'isError' in obj) {
      const { resultType: _ignored, ...rest } = obj;
      return { ...rest, content: (obj.content as CallToolResult['content']) ?? [] };
    }
    return { content: [{ type: 'text', text: JSON.stringify(obj) }], structuredContent: obj };
  }
  // What is left is a number, boolean, bigint, symbol or function.
  const primitive = value as number | boolean | bigint | symbol | ((...args: unknown[]) => unknown);
  return { content: [{ type: 'text', text: String(primitive) }] };
}

export function toolErrorResult(error: ToolError): CallToolResult {
  const result: CallToolResult = { content: [{ type: 'text', text: error.message }], isError: true };
  if (error.structuredContent) result.structuredContent = error.structuredContent;
  return result;
}
