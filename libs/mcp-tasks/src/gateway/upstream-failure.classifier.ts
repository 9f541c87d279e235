import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import type { UpstreamClientApi } from './upstream-client.api.js';
import { UpstreamAnsweredError } from './upstream-answered.error.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';

/** The classes of the client package whose errors carry a JSON-RPC error the server sent. */
export type AnsweringClasses = Pick<UpstreamClientApi, 'McpRpcError' | 'McpAuthError'>;

/**
 * What a failed request to an upstream comes to: the upstream's own JSON-RPC error, or unreachable. An error is the
 * upstream's answer by its class, never by its code: the client package's `McpRpcError` (a response to a raw
 * request, 2026-07-28) or `McpAuthError` carrying one (a 401/403 answer), the SDK's `ProtocolError` (a response on
 * a 2025-era session). SDKs raise errors of their own that look like answers (the 1.x SDK's `-32001` request timed
 * out and `-32000` connection closed); those, the 2.x SDK's `SdkError`s and every other failure (refused, reset,
 * not JSON-RPC) are unreachable. `deadlinePassed`: the request ran out of the time the gateway gave it.
 */
export function upstreamFailure(
  upstream: string,
  err: unknown,
  classes: AnsweringClasses,
  deadlinePassed = false,
): UpstreamAnsweredError | UpstreamUnreachableError {
  if (err instanceof UpstreamAnsweredError || err instanceof UpstreamUnreachableError) return err;
  const answer = answerIn(err, classes);
  if (answer) return new UpstreamAnsweredError(upstream, answer.code, answer.message, answer.data);
  const timedOut = deadlinePassed || (err instanceof SdkError && err.code === SdkErrorCode.RequestTimeout);
  return new UpstreamUnreachableError(upstream, describeFailure(err), timedOut);
}

function answerIn(
  err: unknown,
  classes: AnsweringClasses,
): { code: number; message: string; data?: unknown } | undefined {
  const answered =
    err instanceof classes.McpRpcError ||
    err instanceof ProtocolError ||
    (classes.McpAuthError !== undefined && err instanceof classes.McpAuthError);
  if (!answered) return undefined;
  const { code, message, data } = err as Error & { code?: unknown; data?: unknown };
  return typeof code === 'number' && Number.isInteger(code) ? { code, message, data } : undefined;
}

/** A failure for the server log: its message and its cause's. */
export const describeFailure = (err: unknown): string => {
  const e = err as { message?: string; cause?: { message?: string } };
  return [e?.message ?? String(err), e?.cause?.message].filter(Boolean).join(': ');
};
