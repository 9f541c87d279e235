import { describe, expect, it } from '@jest/globals';
import { parseProgress } from './progress-text.parser.js';

describe('parseProgress', () => {
  it.each([
    ['exporting demo (2/5)', { done: 2, total: 5, label: 'exporting demo' }],
    ['3/10', { done: 3, total: 10, label: '' }],
    ['a (b) (1/4)', { done: 1, total: 4, label: 'a (b)' }],
    ['copying (2.5/10)', { done: 2.5, total: 10, label: 'copying' }],
  ])('reads %j', (text, counts) => {
    expect(parseProgress(text)).toEqual(counts);
  });

  it.each([undefined, '', 'working', '7', 'step (3)', 'ratio 1/2', '1/2)', 'x (1/2', 'nothing (0/0)'])(
    'finds no counts in %j',
    (text) => {
      expect(parseProgress(text)).toBeUndefined();
    },
  );
});
