/** How a synchronous run reports progress: `notifications/progress` for its request. */
export type ProgressSink = (progress: number, total?: number, message?: string) => Promise<void>;

/** A `notifications/progress` message, as both wires send it. */
export interface ProgressNotification {
  method: 'notifications/progress';
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

/**
 * The sink of a request that carried a `progressToken`: each report goes out through `notify` as
 * `notifications/progress` for that token. A request without a (valid) token gets none: progress is dropped.
 */
export function progressSink(
  token: unknown,
  notify: (notification: ProgressNotification) => void | Promise<void>,
): ProgressSink | undefined {
  if (typeof token !== 'string' && typeof token !== 'number') return undefined;
  return async (progress, total, message) =>
    notify({
      method: 'notifications/progress',
      params: {
        progressToken: token,
        progress,
        ...(total !== undefined ? { total } : {}),
        ...(message ? { message } : {}),
      },
    });
}
