import { shownValue } from './duration.rule.js';

/** The largest `fallbackPollFactor`: polls a thousand times rarer than the server asks are as good as none. */
export const MAX_POLL_FACTOR = 1000;

/**
 * What is wrong with a `fallbackPollFactor` (it multiplies the server's `pollIntervalMs` into a timer), or
 * `undefined`: below 1 would poll faster than the server asks, 0 or `NaN` without a pause.
 */
export function pollFactorProblem(value: unknown): string | undefined {
  if (value === undefined || (typeof value === 'number' && value >= 1 && value <= MAX_POLL_FACTOR)) return undefined;
  return `fallbackPollFactor must be a number from 1 to ${MAX_POLL_FACTOR} (got ${shownValue(value)})`;
}

/** Refuses a bad `fallbackPollFactor` before anything is sent, naming the method it was given to. */
export function assertPollFactor(method: 'awaitTask' | 'runTool', value: unknown): void {
  const problem = pollFactorProblem(value);
  if (problem) throw new TypeError(`${method}: ${problem}`);
}
