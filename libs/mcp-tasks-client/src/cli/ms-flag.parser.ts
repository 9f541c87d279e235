import { durationProblem, type DurationBounds } from '../duration.rule.js';
import { UsageError } from './usage.error.js';

/** A `<ms>` flag's value: decimal digits within `bounds` (the duration rule), else a usage error naming the flag. */
export function msFlag(flag: string, raw: string, bounds: DurationBounds): number {
  const value = /^\d+$/.test(raw) ? Number(raw) : raw;
  const problem = durationProblem(flag, value, bounds);
  if (problem) throw new UsageError(problem);
  return value as number;
}
