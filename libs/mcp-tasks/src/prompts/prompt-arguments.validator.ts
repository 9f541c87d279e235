import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { RpcError } from '../protocol/rpc.error.js';
import { validationMessages } from '../tools/validation-messages.js';

/**
 * `prompts/get` arguments checked for the prompt `name` (2026-07-28 and 2025-11-25 Prompts → Error Handling: invalid
 * or missing arguments are `-32602`): an object of strings, then its `args` DTO, whose instance is returned (the
 * object as sent without one). The error's `data.errors` has one `<path>: <rule>` line per failing property.
 */
export async function validatePromptArguments(
  name: string,
  dto: (new (...args: any[]) => object) | undefined,
  raw: unknown,
): Promise<object> {
  const args = raw ?? {};
  if (typeof args !== 'object' || Array.isArray(args))
    throw RpcError.invalidParams(`Invalid arguments for prompt ${name}: arguments must be an object`);
  const notText = Object.entries(args).find(([, v]) => typeof v !== 'string');
  if (notText) throw invalid(name, [`${notText[0]}: must be a string`]);
  if (!dto) return args;
  const instance = plainToInstance(dto, args);
  const errors = await validate(instance, {
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  if (errors.length > 0) throw invalid(name, validationMessages(errors));
  return instance;
}

const invalid = (name: string, problems: string[]): RpcError =>
  RpcError.invalidParams(`Invalid arguments for prompt ${name}: ${problems.join('; ')}`, { errors: problems });
