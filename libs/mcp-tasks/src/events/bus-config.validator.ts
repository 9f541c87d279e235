import { isTaskEventBus } from './task-event-bus.interface.js';

const NATS_PREFIX = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** What is wrong with the `bus` option, naming the field; `undefined` when it is a bus or a valid configuration. */
export function busConfigProblem(value: unknown): string | undefined {
  if (isTaskEventBus(value)) return undefined;
  const v = value as Record<string, unknown> | null;
  const type = v && typeof v === 'object' ? v.type : undefined;
  if (type === 'postgres') return undefined;
  if (type !== 'redis' && type !== 'nats')
    return 'bus must implement TaskEventBus (publish, subscribe) or be { type: "postgres" | "redis" | "nats" }';
  const c = v!.connection;
  if (!(typeof c === 'string' ? c.length > 0 : !!c && typeof c === 'object'))
    return `bus.connection is required for bus { type: "${type}" }: a URL, client options or the app's own client`;
  if (typeof c === 'string' && !c.split(',').every(isUrl))
    return `bus.connection for bus { type: "${type}" } must be a URL (got "${c}")`;
  const prefix = v!.prefix;
  if (prefix === undefined) return undefined;
  if (typeof prefix !== 'string' || !prefix) return 'bus.prefix must be a non-empty string';
  if (type === 'nats' && !NATS_PREFIX.test(prefix))
    return `bus.prefix must be NATS subject tokens (letters, digits, _ and -, dot-separated; got "${prefix}")`;
  if (type === 'redis' && /\s/.test(prefix)) return `bus.prefix must not contain spaces (got "${prefix}")`;
  return undefined;
}

function isUrl(text: string): boolean {
  try {
    return !!new URL(text.trim()).hostname;
  } catch {
    return false;
  }
}
