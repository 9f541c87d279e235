/** How a mirror retries an unreachable upstream: from this, doubling up to `MAX_RETRY_MS`. */
export const FIRST_RETRY_MS = 500;
export const MAX_RETRY_MS = 10_000;
/**
 * While a listen stream covers the task, polls are this much rarer: notifications bring status changes and
 * questions at once, the polls bring progress messages (which are not notified) and what a broken stream missed.
 */
export const LISTEN_POLL_FACTOR = 5;
/** The shortest poll interval a mirror takes from an upstream's hint. */
export const MIN_POLL_MS = 50;
