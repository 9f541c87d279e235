import { describe, expect, it } from '@jest/globals';
import { ToolError } from './tool-error.js';
import { toCallToolResult, toolErrorResult } from './tool-result.normalizer.js';

describe('toCallToolResult', () => {
  it.each([
    ['a string', 'hi', { content: [{ type: 'text', text: 'hi' }] }],
    ['nothing', undefined, { content: [] }],
    [
      'a content array',
      [{ type: 'image', data: 'x', mimeType: 'image/png' }],
      { content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] },
    ],
    ['a full result', { content: [], isError: true, resultType: 'task' }, { content: [], isError: true }],
    ['structured content only', { structuredContent: { a: 1 } }, { content: [], structuredContent: { a: 1 } }],
    ['a plain object', { a: 1 }, { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } }],
    ['a number', 42, { content: [{ type: 'text', text: '42' }] }],
  ])('%s', (_l, value, expected) => {
    expect(toCallToolResult(value)).toEqual(expected);
  });

  it('a ToolError becomes an isError result with its message', () => {
    expect(toolErrorResult(new ToolError('nope', { field: 'a' }))).toEqual({
      content: [{ type: 'text', text: 'nope' }],
      isError: true,
      structuredContent: { field: 'a' },
    });
  });
});
