import { stopIn } from './run-stopped.error.js';
import { TaskCancelledError } from './task-cancelled.error.js';

/**
 * The one (debug) line for a run its signal stopped, from what the run then threw: the stop passed on, in any shape,
 * is no error; anything else is dropped (the stop decides how the run ends), but said, with its stack.
 */
export function stopNote(run: string, why: string, err: unknown): string {
  const passedOn =
    stopIn(err) !== undefined ||
    err instanceof TaskCancelledError ||
    (typeof err === 'object' && err !== null && (err as Error).name === 'AbortError');
  if (passedOn) return `${run} stopped (${why})`;
  const thrown = (err as Error | undefined)?.stack ?? String(err);
  return `${run} stopped (${why}); what it threw then is dropped: ${thrown}`;
}
