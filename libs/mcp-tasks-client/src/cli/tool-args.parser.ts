import { UsageError } from './usage.error.js';

type JsonSchema = { type?: unknown; properties?: Record<string, { type?: unknown } | null> } | null;

/** `--args '{"a":1}'`: a JSON object. */
export function parseArgsJson(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--args is not JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError('--args must be a JSON object, e.g. --args \'{"project":"demo"}\'');
  return value as Record<string, unknown>;
}

/**
 * `--arg key=value` pairs, each value typed by the tool's input schema: numbers and integers as numbers,
 * booleans from `true`/`false`/`yes`/`no`, arrays and objects as JSON, strings as given. A key the schema does
 * not type takes the value as JSON when it parses (`3`, `true`, `[1]`) and as a string otherwise.
 */
export function parseArgPairs(pairs: string[], inputSchema?: unknown): Record<string, unknown> {
  const schema = inputSchema as JsonSchema | undefined;
  const args: Record<string, unknown> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--arg takes key=value, not ${JSON.stringify(pair)}`);
    const key = pair.slice(0, eq);
    args[key] = typed(key, pair.slice(eq + 1), schema?.properties?.[key]?.type);
  }
  return args;
}

function typed(key: string, raw: string, type: unknown): unknown {
  const bad = (what: string) => new UsageError(`--arg ${key}: ${JSON.stringify(raw)} is not ${what}`);
  switch (Array.isArray(type) ? type.find((t) => t !== 'null') : type) {
    case 'string':
      return raw;
    case 'number':
    case 'integer': {
      const n = raw.trim() === '' ? NaN : Number(raw);
      if (!Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n))) throw bad(`a ${String(type)}`);
      return n;
    }
    case 'boolean':
      if (/^(true|yes|y|1)$/i.test(raw)) return true;
      if (/^(false|no|n|0)$/i.test(raw)) return false;
      throw bad('a boolean (true/false, yes/no)');
    case 'array':
    case 'object':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw bad(`JSON (the tool takes an ${String(type)})`);
      }
    default:
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        return raw;
      }
  }
}
