/** Progress counts read from a status message. */
export interface ProgressCounts {
  done: number;
  total: number;
  /** The message without its counts; empty when there was none. */
  label: string;
}

/**
 * The counts in a status message as `@mcp-tasks/nestjs` writes `ctx.progress(done, total, message)`:
 * `"message (done/total)"`, or `"done/total"` without a message. `undefined` when the message has no
 * total (a spinner shows it instead).
 */
export function parseProgress(statusMessage: string | undefined): ProgressCounts | undefined {
  const match = /^(?:(.*) \()?(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\)?$/s.exec(statusMessage ?? '');
  if (!match) return undefined;
  const [, label = '', done, total] = match;
  // "(1/2" or "1/2)" alone is not the library's format.
  if ((match[1] === undefined) !== !statusMessage!.endsWith(')')) return undefined;
  const counts = { done: Number(done), total: Number(total), label };
  return counts.total > 0 ? counts : undefined;
}
