import { describe, expect, it } from '@jest/globals';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MinLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { RpcError } from '../protocol/rpc.error.js';
import { promptArgumentsOf } from './prompt-arguments.factory.js';
import { validatePromptArguments } from './prompt-arguments.validator.js';

class ReviewArgs {
  @JSONSchema({ description: 'The code to review' })
  @IsString()
  @MinLength(3)
  code!: string;

  @IsOptional()
  @IsIn(['python', 'typescript'])
  language?: string;

  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Max(5)
  depth?: number;
}

const errorOf = async (p: Promise<unknown>): Promise<RpcError> => {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(RpcError);
  return err as RpcError;
};

describe('promptArgumentsOf', () => {
  it('lists the DTO properties in order, required unless @IsOptional, with their descriptions', () => {
    expect(promptArgumentsOf(ReviewArgs)).toEqual([
      { name: 'code', description: 'The code to review', required: true },
      { name: 'language', required: false },
      { name: 'depth', required: false },
    ]);
  });

  it('no DTO: no arguments', () => {
    expect(promptArgumentsOf(undefined)).toEqual([]);
  });
});

describe('validatePromptArguments', () => {
  it('gives the DTO instance, strings converted where @Type says', async () => {
    const args = await validatePromptArguments('review', ReviewArgs, { code: 'x = 1', depth: '2' });
    expect(args).toBeInstanceOf(ReviewArgs);
    expect(args).toEqual({ code: 'x = 1', depth: 2 });
  });

  it('a missing required argument and a bad one: -32602, one line each', async () => {
    const err = await errorOf(validatePromptArguments('review', ReviewArgs, { language: 'cobol' }));
    expect(err.toJSON()).toEqual({
      code: -32602,
      message: expect.stringMatching(/^Invalid arguments for prompt review: /),
      data: { errors: ['code: must be a string', 'language: must be one of the following values: python, typescript'] },
    });
  });

  it('arguments that are no object of strings: -32602', async () => {
    expect((await errorOf(validatePromptArguments('p', undefined, ['a']))).code).toBe(-32602);
    expect((await errorOf(validatePromptArguments('p', undefined, 'a'))).code).toBe(-32602);
    const err = await errorOf(validatePromptArguments('review', ReviewArgs, { code: 12345 }));
    expect(err.data).toEqual({ errors: ['code: must be a string'] });
  });

  it('no DTO: the object as sent (absent: empty)', async () => {
    expect(await validatePromptArguments('p', undefined, { a: 'b' })).toEqual({ a: 'b' });
    expect(await validatePromptArguments('p', undefined, undefined)).toEqual({});
  });
});
