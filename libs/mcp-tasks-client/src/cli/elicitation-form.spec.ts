import { describe, expect, it } from '@jest/globals';
import { formQuestions } from './elicitation-form.js';

describe('formQuestions', () => {
  it('maps each kind of form field to a question, in schema order', () => {
    const questions = formQuestions({
      type: 'object',
      properties: {
        channel: { type: 'string', title: 'Channel', enum: ['stable', 'beta'], default: 'beta' },
        size: {
          type: 'string',
          oneOf: [
            { const: 's', title: 'Small' },
            { const: 'l', title: 'Large' },
          ],
        },
        color: { type: 'string', enum: ['r', 'g'], enumNames: ['Red', 'Green'] },
        notify: { type: 'boolean', title: 'Notify', default: true },
        tags: { type: 'array', items: { enum: ['a', 'b'] }, default: ['a'], minItems: 1 },
        sizes: { type: 'array', items: { anyOf: [{ const: 'x', title: 'X' }] } },
        count: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
        ratio: { type: 'number' },
        email: { type: 'string', format: 'email', minLength: 3, maxLength: 50, default: 7 },
      },
      required: ['channel', 'notify', 'count'],
    });
    expect(questions).toEqual([
      {
        key: 'channel',
        message: 'Channel',
        required: true,
        kind: 'select',
        choices: [
          { value: 'stable', name: 'stable' },
          { value: 'beta', name: 'beta' },
        ],
        default: 'beta',
      },
      {
        key: 'size',
        message: 'size',
        required: false,
        kind: 'select',
        choices: [
          { value: 's', name: 'Small' },
          { value: 'l', name: 'Large' },
        ],
        default: undefined,
      },
      {
        key: 'color',
        message: 'color',
        required: false,
        kind: 'select',
        choices: [
          { value: 'r', name: 'Red' },
          { value: 'g', name: 'Green' },
        ],
        default: undefined,
      },
      { key: 'notify', message: 'Notify', required: true, kind: 'confirm', default: true },
      {
        key: 'tags',
        message: 'tags',
        required: false,
        kind: 'checkbox',
        choices: [
          { value: 'a', name: 'a' },
          { value: 'b', name: 'b' },
        ],
        default: ['a'],
        minItems: 1,
        maxItems: undefined,
      },
      {
        key: 'sizes',
        message: 'sizes',
        required: false,
        kind: 'checkbox',
        choices: [{ value: 'x', name: 'X' }],
        default: [],
        minItems: undefined,
        maxItems: undefined,
      },
      { key: 'count', message: 'count', required: true, kind: 'number', integer: true, min: 1, max: 9, default: 2 },
      {
        key: 'ratio',
        message: 'ratio',
        required: false,
        kind: 'number',
        integer: false,
        min: undefined,
        max: undefined,
        default: undefined,
      },
      {
        key: 'email',
        message: 'email',
        required: false,
        kind: 'input',
        default: undefined,
        minLength: 3,
        maxLength: 50,
        format: 'email',
      },
    ]);
  });

  it('has no questions for a schema without properties', () => {
    expect(formQuestions({ type: 'object' })).toEqual([]);
    expect(formQuestions(undefined)).toEqual([]);
  });
});
