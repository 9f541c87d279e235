import { parseArgsJson } from './tool-args.parser.js';
import { UsageError } from './usage.error.js';

/**
 * A prompt's arguments, which are strings (the spec's `prompts/get`): `--args` as a JSON object of strings, or
 * `--arg key=value` pairs taken as they are (no typing: `--arg n=3` sends `"3"`).
 */
export function parsePromptArgs(json: string | undefined, pairs: string[] = []): Record<string, string> {
  if (json !== undefined) {
    const args = parseArgsJson(json);
    for (const [key, value] of Object.entries(args))
      if (typeof value !== 'string')
        throw new UsageError(`--args ${key}: prompt arguments are strings, not ${typeof value}`);
    return args as Record<string, string>;
  }
  return stringPairs(pairs, '--arg');
}

/** `key=value` pairs of a repeatable `flag`, values as strings as given. */
export function stringPairs(pairs: string[], flag: string): Record<string, string> {
  const args: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`${flag} takes key=value, not ${JSON.stringify(pair)}`);
    args[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return args;
}
