import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { RpcError } from '../protocol/rpc.error.js';
import { validationMessages } from '../tools/validation-messages.js';

/**
 * A template's URI variables as its `params` DTO makes them; variables that fail it are `-32602`, one line per
 * failing variable in the message and `data.errors`, with the URI in `data.uri`.
 */
export async function validatedParams(
  dto: (new (...args: any[]) => object) | undefined,
  variables: Record<string, unknown>,
  uri: string,
): Promise<object> {
  if (!dto) return variables;
  const instance = plainToInstance(dto, variables);
  const errors = await validate(instance, {
    forbidUnknownValues: false,
    validationError: { target: false, value: false },
  });
  if (errors.length === 0) return instance;
  const problems = validationMessages(errors);
  throw RpcError.invalidParams(`Invalid URI variables for ${uri}: ${problems.join('; ')}`, { uri, errors: problems });
}
