import { isLoggingLevel, passes, type LoggingLevel } from '../common/logging-level.js';

/** How a synchronous run logs to its client: `notifications/message` on its request's stream. */
export type LogSink = (level: LoggingLevel, data: unknown, logger?: string) => void;

/** A `notifications/message` message, as both wires send it. */
export interface LogNotification {
  method: 'notifications/message';
  params: { level: LoggingLevel; logger?: string; data: unknown };
}

/**
 * The sink of a request whose client asked for messages from `threshold` up: each one at or above it goes out
 * through `notify`, the others are dropped. No threshold, no sink (2026-07-28 sends nothing to a request without
 * `_meta["io.modelcontextprotocol/logLevel"]`).
 */
export function logSink(
  threshold: LoggingLevel | undefined,
  notify: (notification: LogNotification) => void,
): LogSink | undefined {
  if (!isLoggingLevel(threshold)) return undefined;
  return (level, data, logger) => {
    if (!passes(level, threshold)) return;
    notify({ method: 'notifications/message', params: { level, ...(logger ? { logger } : {}), data } });
  };
}

/** A tool's `ctx.log` with a level that is none: a programming error, said at once. */
export function checkLevel(level: unknown): asserts level is LoggingLevel {
  if (!isLoggingLevel(level)) throw new TypeError(`ctx.log: "${String(level)}" is not a logging level (RFC 5424)`);
}
