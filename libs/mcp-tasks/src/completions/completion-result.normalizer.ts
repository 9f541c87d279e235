import { MAX_COMPLETION_VALUES } from './completion.constants.js';
import { InvalidCompletion } from './invalid-completion.error.js';

/** The `completion` of a `completion/complete` result. */
export interface Completion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/**
 * What a completer returned, as the `completion` sent: `undefined`/`null` is no values; an array its values; an
 * object `{ values, total?, hasMore? }` as is. More than 100 values are cut to the first 100, with `hasMore: true`
 * and `total` the count returned unless one was given. Anything else throws `InvalidCompletion`.
 */
export function toCompletion(value: unknown): Completion {
  if (value === undefined || value === null) return { values: [] };
  const given = Array.isArray(value) ? { values: value as unknown } : (value as Record<string, unknown>);
  if (typeof given !== 'object' || !Array.isArray(given.values))
    throw new InvalidCompletion('a completer returns an array of strings or { values, total?, hasMore? }');
  const values = given.values as unknown[];
  const at = values.findIndex((v) => typeof v !== 'string');
  if (at >= 0) throw new InvalidCompletion(`value ${at} is not a string`);
  const { total, hasMore } = given;
  if (total !== undefined && !(Number.isInteger(total) && (total as number) >= 0))
    throw new InvalidCompletion('total is not a non-negative integer');
  if (hasMore !== undefined && typeof hasMore !== 'boolean') throw new InvalidCompletion('hasMore is not a boolean');
  const cut = values.length > MAX_COMPLETION_VALUES;
  return {
    values: (cut ? values.slice(0, MAX_COMPLETION_VALUES) : values) as string[],
    ...(total !== undefined || cut ? { total: (total as number | undefined) ?? values.length } : {}),
    ...(hasMore !== undefined || cut ? { hasMore: cut || (hasMore as boolean) } : {}),
  };
}
