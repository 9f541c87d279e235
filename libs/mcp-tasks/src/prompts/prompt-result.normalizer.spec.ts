import { describe, expect, it } from '@jest/globals';
import { imageContent } from '../tools/content.helpers.js';
import { InvalidPromptResult } from './invalid-prompt-result.error.js';
import { toPromptResult } from './prompt-result.normalizer.js';

const text = (t: string) => ({ type: 'text', text: t });

describe('toPromptResult', () => {
  it('a string is one user text message, with the decorator description', () => {
    expect(toPromptResult('Hi', 'greets')).toEqual({
      description: 'greets',
      messages: [{ role: 'user', content: text('Hi') }],
    });
    expect(toPromptResult('Hi')).toEqual({ messages: [{ role: 'user', content: text('Hi') }] });
  });

  it('a content block is one user message holding it', () => {
    const image = imageContent('iVBORw0KGgo=', 'image/png');
    expect(toPromptResult(image).messages).toEqual([{ role: 'user', content: image }]);
  });

  it('an array is one message per item: strings, blocks and messages mixed, in order', () => {
    const reply = { role: 'assistant', content: text('Sure.') };
    expect(toPromptResult(['Look at this', reply, text('and this')]).messages).toEqual([
      { role: 'user', content: text('Look at this') },
      reply,
      { role: 'user', content: text('and this') },
    ]);
  });

  it('a whole result keeps its messages; its description wins over the decorator', () => {
    const r = toPromptResult(
      { description: 'own', messages: ['a', { role: 'assistant', content: text('b') }] },
      'deco',
    );
    expect(r).toEqual({
      description: 'own',
      messages: [
        { role: 'user', content: text('a') },
        { role: 'assistant', content: text('b') },
      ],
    });
    expect(toPromptResult({ messages: [] }, 'deco')).toEqual({ description: 'deco', messages: [] });
  });

  it.each([
    ['a number', 42, /message 0 is no string, message or content block/],
    ['undefined', undefined, /message 0 is no string/],
    ['a bad role', { role: 'system', content: text('x') }, /message 0: role is not/],
    ['a message without content', { role: 'user', content: 'x' }, /message 0: its content is no content block/],
    ['an unknown block in an array', ['ok', { type: 'video', url: 'x' }], /message 1 is no string/],
    ['a description that is no string', { description: 3, messages: [] }, /description is not a string/],
  ])('%s cannot be sent: InvalidPromptResult says why', (_, value, why) => {
    expect(() => toPromptResult(value)).toThrow(InvalidPromptResult);
    expect(() => toPromptResult(value)).toThrow(why);
  });
});
