import { describe, expect, it } from '@jest/globals';
import { UsageError } from './usage.error.js';
import { parseArgPairs, parseArgsJson } from './tool-args.parser.js';

const schema = {
  type: 'object',
  properties: {
    project: { type: 'string' },
    files: { type: 'integer' },
    ratio: { type: 'number' },
    dry: { type: 'boolean' },
    tags: { type: 'array' },
    label: { type: ['string', 'null'] },
  },
};

describe('parseArgPairs', () => {
  it('types values by the input schema', () => {
    expect(
      parseArgPairs(
        ['project=007', 'files=3', 'ratio=0.5', 'dry=yes', 'tags=["a","b"]', 'label=x=y', 'free=12', 'other=hi'],
        schema,
      ),
    ).toEqual({
      project: '007',
      files: 3,
      ratio: 0.5,
      dry: true,
      tags: ['a', 'b'],
      label: 'x=y',
      free: 12,
      other: 'hi',
    });
  });

  it('without a schema, JSON when it parses and a string otherwise', () => {
    expect(parseArgPairs(['a=true', 'b={"c":1}', 'd=plain text', 'e='])).toEqual({
      a: true,
      b: { c: 1 },
      d: 'plain text',
      e: '',
    });
  });

  it.each([
    ['files=3.5', 'is not a integer'],
    ['files=', 'is not a integer'],
    ['ratio=abc', 'is not a number'],
    ['dry=maybe', 'is not a boolean'],
    ['tags=[1', 'is not JSON'],
    ['noequals', 'takes key=value'],
    ['=x', 'takes key=value'],
  ])('refuses %j', (pair, message) => {
    expect(() => parseArgPairs([pair], schema)).toThrow(UsageError);
    expect(() => parseArgPairs([pair], schema)).toThrow(message);
  });
});

describe('parseArgsJson', () => {
  it('takes a JSON object', () => {
    expect(parseArgsJson('{"project":"demo","files":2}')).toEqual({ project: 'demo', files: 2 });
  });

  it.each([
    ['{', 'is not JSON'],
    ['[1]', 'must be a JSON object'],
    ['3', 'must be a JSON object'],
    ['null', 'must be a JSON object'],
  ])('refuses %j', (text, message) => {
    expect(() => parseArgsJson(text)).toThrow(message);
  });
});
