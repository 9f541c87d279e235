/** The longest delay Node's timers take: longer ones fire at once (with a `TimeoutOverflowWarning`). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * `setTimeout` for any delay: a delay past `MAX_TIMER_MS` is waited in steps. The timer does not keep the process
 * alive. Returns what cancels it.
 */
export function setLongTimeout(fn: () => void, ms: number): () => void {
  let timer: NodeJS.Timeout;
  const arm = (left: number): void => {
    timer = setTimeout(() => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fn()), Math.min(left, MAX_TIMER_MS));
    timer.unref();
  };
  arm(Math.max(0, ms));
  return () => clearTimeout(timer);
}
