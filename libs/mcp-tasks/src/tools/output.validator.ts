import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { ToolOutput } from '../decorators/mcp-tool.decorator.js';
import { validationMessages } from './validation-messages.js';

type Dto = new (...args: any[]) => object;

const isObject = (v: unknown): v is object => !!v && typeof v === 'object' && !Array.isArray(v);
const kindOf = (v: unknown): string => (Array.isArray(v) ? 'an array' : v === null ? 'null' : `a ${typeof v}`);

/**
 * How a result's `structuredContent` (the JSON value sent) fails the tool's `output` DTO — checked with
 * class-validator, as the arguments are against `input` — or `[]` when it matches.
 */
export async function outputProblems(output: ToolOutput, value: unknown): Promise<string[]> {
  if (!Array.isArray(output)) return problemsOf(output, value, '');
  const [dto] = output;
  if (!Array.isArray(value)) return [`${kindOf(value)}, not an array of ${dto.name}`];
  return (await Promise.all(value.map((item, i) => problemsOf(dto, item, `[${i}]`)))).flat();
}

async function problemsOf(dto: Dto, value: unknown, at: string): Promise<string[]> {
  if (!isObject(value)) return [`${at || 'the value'} is ${kindOf(value)}, not a ${dto.name} object`];
  const errors = await validate(plainToInstance(dto, value), {
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  return validationMessages(errors, at);
}
