/** The longest delay Node's timers take: a longer one fires at once (an interval every 1 ms). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** The values a duration option takes, in ms, both ends included. */
export interface DurationBounds {
  min: number;
  max: number;
  /** `null` is a value too (e.g. a `ttl` that never expires). */
  nullable?: boolean;
}

/**
 * The one rule of every duration option, as `@mcp-tasks/nestjs` has it (this package cannot import that one; a spec
 * there keeps the two identical): an integer number of ms within `bounds`. Returns what is wrong, naming the
 * option, or `undefined`; each caller adds its own prefix and throws.
 */
export function durationProblem(name: string, value: unknown, bounds: DurationBounds): string | undefined {
  const { min, max, nullable = false } = bounds;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return undefined;
  if (value === null && nullable) return undefined;
  const range = `from ${min} to ${max}${nullable ? ', or null' : ''}`;
  return `${name} must be an integer number of ms ${range} (got ${shownValue(value)})`;
}

/** A value as the message shows it: a string quoted (`"5"` is not 5), an object or a function by its kind only. */
export function shownValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
}

/** `ms` as a timer takes it: a hint that is not a finite number gives `fallback`, the rest is held within range. */
export function timerDelay(ms: unknown, fallback: number): number {
  return typeof ms === 'number' && Number.isFinite(ms) ? Math.min(MAX_TIMER_MS, Math.max(0, ms)) : fallback;
}
