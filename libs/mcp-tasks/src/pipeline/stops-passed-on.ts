import { stopIn } from '../context/run-stopped.error.js';
import type { Method } from './enhanced-stand-in.js';

/**
 * Calls a tool method for its pipeline. What a run stopped by its signal throws — the abort in whatever shape the
 * tool got it (an `AbortError` of timers or streams, an error wrapping it) — reaches Nest's exception filters as the
 * stop itself, which its exceptions handler does not log: a cancel is not an error. Anything else is left as thrown.
 */
export function callPassingStopsOn(method: Method, self: unknown, args: unknown[]): unknown {
  try {
    const value = method.apply(self, args);
    return value instanceof Promise ? value.catch(passStopOn) : value;
  } catch (err) {
    return passStopOn(err);
  }
}

const passStopOn = (err: unknown): never => {
  throw stopIn(err) ?? err;
};
