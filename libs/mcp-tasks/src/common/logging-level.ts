/**
 * A log message's severity: RFC 5424's syslog levels, least severe first.
 * @publicApi
 */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** Every level, least severe first: a threshold keeps its own level and those after it. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
];

export const isLoggingLevel = (value: unknown): value is LoggingLevel =>
  typeof value === 'string' && (LOGGING_LEVELS as readonly string[]).includes(value);

/** Whether a message at `level` passes `threshold` (at or above it). */
export const passes = (level: LoggingLevel, threshold: LoggingLevel): boolean =>
  LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
