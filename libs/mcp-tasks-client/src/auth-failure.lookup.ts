import { McpAuthError } from './mcp-auth.error.js';

/**
 * The 401/403 a failure comes from, if any. ext-tasks wraps what a request failed with (`DispatchError`, the
 * original as `cause`), and the SDK's version probe does the same with a 403: the caller gets the refusal itself.
 */
export function authFailureIn(error: unknown): McpAuthError | undefined {
  let at = error;
  for (let depth = 0; depth < 5 && at instanceof Error; depth++) {
    if (at instanceof McpAuthError) return at;
    at = at.cause;
  }
  return undefined;
}

/** Rethrows a failure, as the refusal it comes from when it comes from one. */
export function rethrowAuth(error: unknown): never {
  throw authFailureIn(error) ?? error;
}
