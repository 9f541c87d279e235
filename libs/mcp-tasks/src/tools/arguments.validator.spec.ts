import { describe, expect, it } from '@jest/globals';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { RpcError } from '../protocol/rpc.error.js';
import { failureOf } from '../tasks/task.outcome.js';
import { ArgumentsInvalidError } from './arguments-invalid.error.js';
import { validateArguments } from './arguments.validator.js';

class TagDto {
  @IsString({ message: 'a tag names something' })
  @MinLength(2)
  name!: string;
}

class JobDto {
  @IsInt()
  @Min(1)
  @Max(3600)
  seconds!: number;

  @IsDefined()
  @IsIn(['low', 'high'])
  @IsString()
  priority!: string;

  @IsOptional()
  @MaxLength(3)
  @IsString()
  code?: string;

  @IsOptional()
  @IsNumber()
  @IsInt()
  count?: number;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => TagDto)
  tags?: TagDto[];
}

const tool = { name: 'job', options: { input: JobDto } } as unknown as ToolDefinition;
const problemsOf = (args: unknown) =>
  validateArguments(tool, args).then(
    () => [],
    (err: unknown) => (err instanceof ArgumentsInvalidError ? err.problems : [`not invalid arguments: ${String(err)}`]),
  );

describe('validateArguments', () => {
  it('a line per failing property, its most telling rule: presence, type, any other rule, bounds', async () => {
    // "ten" fails isInt, min and max; a missing priority fails isDefined, isIn and isString.
    expect(await problemsOf({ seconds: 'ten' })).toEqual([
      'seconds: must be an integer number',
      'priority: should not be null or undefined',
    ]);
    expect(await problemsOf({ seconds: 0, priority: 'mid' })).toEqual([
      'seconds: must not be less than 1',
      'priority: must be one of the following values: low, high',
    ]);
    // The type before a bound, whatever order the decorators come in; isInt before the looser isNumber.
    expect(await problemsOf({ seconds: 5, priority: 'low', code: 12345, count: 'x' })).toEqual([
      'code: must be a string',
      'count: must be an integer number',
    ]);
  });

  it('nested properties by path, array items by index; a custom message without the name stays whole', async () => {
    const problems = await problemsOf({ seconds: 1, priority: 'low', tags: [{ name: 'ok' }, { name: 7 }, {}] });
    expect(problems).toEqual(['tags[1].name: a tag names something', 'tags[2].name: a tag names something']);
    expect(await problemsOf({ seconds: 1, priority: 'low', tags: [{ name: 'x' }] })).toEqual([
      'tags[0].name: must be longer than or equal to 2 characters',
    ]);
  });

  it('arguments that are no object are a malformed request (-32602), not invalid arguments', async () => {
    const err = await validateArguments(tool, [1]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).not.toBeInstanceOf(ArgumentsInvalidError);
    expect((err as RpcError).toJSON()).toEqual({
      code: -32602,
      message: 'Invalid arguments for tool job: arguments must be an object',
    });
  });

  it('as a tool result: isError, text only; a resumed task it stops still ends failed with -32602', async () => {
    const err = (await validateArguments(tool, { seconds: 'ten', priority: 'low' }).catch((e) => e)) as Error;
    expect((err as ArgumentsInvalidError).toResult()).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool job:\nseconds: must be an integer number' }],
      isError: true,
    });
    expect(failureOf('t1', err)).toEqual({
      kind: 'finish',
      status: 'failed',
      error: {
        code: -32602,
        message: 'Invalid arguments for tool job: seconds: must be an integer number',
        data: { errors: ['seconds: must be an integer number'] },
      },
    });
  });
});
