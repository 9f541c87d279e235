import type { McpAuthError } from './mcp-auth.error.js';
import type { TokenSource } from './token.source.js';
import { UnauthorizedError } from './unauthorized.error.js';

const refused = (status: number): boolean => status === 401 || status === 403;

/**
 * One request with a connection's token (`own`: it carries a per-request token, sent as it is): the provider is
 * asked again after a 401 and the request sent once more when that gave another token; a 401 or 403 that stands
 * rejects with what `refusal` reads of it (`UnauthorizedError`, `ForbiddenError`).
 */
export async function sendAuthorized<R extends { status: number }>(
  tokens: TokenSource,
  own: boolean,
  send: (token: string | undefined) => Promise<R>,
  refusal: (res: R) => Promise<McpAuthError>,
): Promise<R> {
  const token = own ? undefined : await tokens.current();
  let res = await send(token);
  if (!refused(res.status)) return res;
  let error = await refusal(res);
  if (error instanceof UnauthorizedError && !own && tokens.renewable) {
    const fresh = await tokens.current({ rejected: error });
    if (fresh === token) throw error;
    res = await send(fresh);
    if (!refused(res.status)) return res;
    error = await refusal(res);
  }
  throw error;
}
