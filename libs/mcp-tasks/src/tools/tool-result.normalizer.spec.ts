import { describe, expect, it } from '@jest/globals';
import { Exclude } from 'class-transformer';
import { IsString } from 'class-validator';
import { imageContent } from './content.helpers.js';
import { ToolError } from './tool.error.js';
import { toCallToolResult, toolErrorResult, type ResultShaping } from './tool-result.normalizer.js';

const plain: ResultShaping = { serializer: {} };

class Account {
  constructor(
    readonly id: number,
    readonly name: string,
  ) {}
  @Exclude() password = 'secret';
}

class NameDto {
  @IsString() name!: string;
}

describe('toCallToolResult', () => {
  it.each([
    ['a string', 'hi', { content: [{ type: 'text', text: 'hi' }] }],
    ['nothing', undefined, { content: [] }],
    [
      'a content array',
      [{ type: 'image', data: 'x', mimeType: 'image/png' }],
      { content: [{ type: 'image', data: 'x', mimeType: 'image/png' }] },
    ],
    [
      'one content block',
      imageContent(Buffer.from('x'), 'image/png'),
      { content: [imageContent('eA==', 'image/png')] },
    ],
    ['a full result', { content: [], isError: true, resultType: 'task' }, { content: [], isError: true }],
    ['structured content only', { structuredContent: { a: 1 } }, { content: [], structuredContent: { a: 1 } }],
    ['a plain object', { a: 1 }, { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } }],
    ['an empty array', [], { content: [{ type: 'text', text: '[]' }], structuredContent: [] }],
    [
      'data that is not blocks',
      [{ type: 'text' }],
      { content: [{ type: 'text', text: '[{"type":"text"}]' }], structuredContent: [{ type: 'text' }] },
    ],
    ['a number', 42, { content: [{ type: 'text', text: '42' }] }],
    ['a Date', new Date(0), { content: [{ type: 'text', text: '1970-01-01T00:00:00.000Z' }] }],
  ])('%s', async (_l, value, expected) => {
    expect(await toCallToolResult(value, plain)).toEqual(expected);
  });

  it('class instances are serialized: @Exclude() fields never appear, in arrays too', async () => {
    const result = await toCallToolResult([new Account(1, 'a')], plain);
    expect(result.structuredContent).toEqual([{ id: 1, name: 'a' }]);
    expect(JSON.stringify(result)).not.toContain('secret');
  });

  it.each([
    ['a function', () => 1, /a function is not a tool result/],
    ['a symbol', Symbol('s'), /a symbol is not a tool result/],
    ['a bigint', 1n, /a bigint is not a tool result/],
    ['a nested bigint', { n: 1n }, /cannot be written as JSON/],
    [
      'a circular object',
      (() => {
        const o: Record<string, unknown> = {};
        o.self = o;
        return o;
      })(),
      /circular/,
    ],
    ['an invalid block in a result', { content: [{ type: 'text' }] }, /content\[0\] is not a content block/],
    ['a result whose content is not an array', { content: 'x', isError: true }, /content is not an array/],
    ['unknown bytes', Buffer.from([1, 2, 3]), /a Buffer of 3 bytes/],
  ])('%s cannot be a result', async (_l, value, why) => {
    await expect(toCallToolResult(value, plain)).rejects.toThrow(why);
  });

  it('with an output DTO, structuredContent must match it (an isError result is not checked)', async () => {
    const how: ResultShaping = { serializer: {}, output: NameDto };
    expect((await toCallToolResult({ name: 'x' }, how)).structuredContent).toEqual({ name: 'x' });
    await expect(toCallToolResult({ name: 1 }, how)).rejects.toThrow(/does not match output NameDto: name: must be/);
    await expect(toCallToolResult('text', how)).rejects.toThrow(/no structuredContent/);
    await expect(toCallToolResult([{ name: 'x' }], how)).rejects.toThrow(/an array, not a NameDto object/);
    expect(await toCallToolResult({ content: [], isError: true }, how)).toEqual({ content: [], isError: true });
    const many: ResultShaping = { serializer: {}, output: [NameDto] };
    await expect(toCallToolResult([{ name: 'x' }, {}], many)).rejects.toThrow(/\[1\]\.name: must be a string/);
  });

  it('a ToolError becomes an isError result with its message', () => {
    expect(toolErrorResult(new ToolError('nope', { field: 'a' }))).toEqual({
      content: [{ type: 'text', text: 'nope' }],
      isError: true,
      structuredContent: { field: 'a' },
    });
  });
});
