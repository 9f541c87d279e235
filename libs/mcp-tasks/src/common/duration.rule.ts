import { MAX_TIMER_MS } from './long-timeout.js';

/** The values a duration option takes, in ms, both ends included. */
export interface DurationBounds {
  min: number;
  max: number;
  /** `null` is a value too (e.g. a `ttl` that never expires). */
  nullable?: boolean;
}

/**
 * A duration handed to `setTimeout`/`setInterval`: from 1 ms to Node's longest timer. A longer one would fire at
 * once (an interval every 1 ms), and `AbortSignal.timeout` throws a `RangeError` past 2^32-1.
 */
export const TIMER_MS: DurationBounds = { min: 1, max: MAX_TIMER_MS };

/**
 * The one rule of every duration option (module, gateway, console; the client package has its own copy, which a
 * spec keeps identical): an integer number of ms within `bounds`. Returns what is wrong, naming the option, or
 * `undefined`; each caller adds its own prefix and throws.
 */
export function durationProblem(name: string, value: unknown, bounds: DurationBounds): string | undefined {
  const { min, max, nullable = false } = bounds;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  if (value === null && nullable) return undefined;
  const range = `from ${min} to ${max}${nullable ? ', or null' : ''}`;
  return `${name} must be an integer number of ms ${range} (got ${shownValue(value)})`;
}

/** A value as the message shows it: a string quoted (`"5"` is not 5), an object or a function by its kind only. */
function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
}
