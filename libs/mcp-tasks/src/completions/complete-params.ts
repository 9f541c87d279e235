import { RpcError } from '../protocol/rpc.error.js';
import type { CompletionContext } from './completion-context.js';

/** A `completion/complete` request's params, checked. */
export interface CompleteParams {
  ref: CompletionContext['ref'];
  argument: { name: string; value: string };
  /** `context.arguments`; `{}` when absent. */
  arguments: Record<string, string>;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const bad = (what: string): RpcError => RpcError.invalidParams(`Invalid completion/complete params: ${what}`);

/** The params of a `completion/complete`, or `-32602` saying what is wrong with them. */
export function completeParamsOf(params: Record<string, unknown>): CompleteParams {
  const { ref, argument, context } = params;
  if (!isObject(ref)) throw bad('ref must be an object');
  let checked: CompleteParams['ref'];
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') checked = { type: 'ref/prompt', name: ref.name };
  else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') checked = { type: 'ref/resource', uri: ref.uri };
  else throw bad('ref must be { type: "ref/prompt", name } or { type: "ref/resource", uri }');
  if (!isObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string')
    throw bad('argument must be { name, value } (strings)');
  const given = isObject(context) ? context.arguments : undefined;
  if (given !== undefined && !(isObject(given) && Object.values(given).every((v) => typeof v === 'string')))
    throw bad('context.arguments must be an object of strings');
  return {
    ref: checked,
    argument: { name: argument.name, value: argument.value },
    arguments: (given ?? {}) as Record<string, string>,
  };
}
