import { IntrinsicException } from '@nestjs/common';

/**
 * The `signal.reason` of a run the library stopped — a cancel, a closed connection, its task's ttl, shutdown — whose
 * message says why. An `IntrinsicException`: a tool passing it on is not failing, so Nest's exceptions handler
 * does not log it as an error.
 */
export class RunStoppedError extends IntrinsicException {
  constructor(why: string) {
    super(why);
    this.name = new.target.name;
  }
}

/** How deep `stopIn` follows `cause`: an AbortError is one level, an app's wrapper of it two. */
const MAX_DEPTH = 8;

/**
 * The stop an error passes on: the signal's reason itself (rethrown, `throwIfAborted()`, what `fetch` rejects
 * with), or the reason that caused it (the `AbortError` of timers, events and streams; an app's error wrapping one).
 */
export function stopIn(err: unknown): RunStoppedError | undefined {
  let e = err;
  // Not `instanceof Object`: errors Node makes may come from another realm (a VM context, as under jest).
  for (let depth = 0; depth < MAX_DEPTH && typeof e === 'object' && e !== null; depth++) {
    if (e instanceof RunStoppedError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
