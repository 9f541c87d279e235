import { readAuthRefusal } from './auth-refusal.reader.js';
import { sendAuthorized } from './authorized.send.js';
import type { TokenSource } from './token.source.js';

/**
 * The `fetch` every streamed request of a connection goes through (the SDK transport's, ext-tasks' task traffic,
 * listen streams): it sends the connection's token, asks a provider again after a 401 and sends the request once
 * more when that gives another token; a 401 or 403 that stands rejects with `UnauthorizedError` or
 * `ForbiddenError`. A request that carries its own `Authorization` (a per-request token) is sent as it is.
 */
export function authorizedFetch(tokens: TokenSource, base: typeof fetch): typeof fetch {
  return async (input, init = {}) => {
    const own = new Headers(init.headers).has('authorization');
    const send = (token: string | undefined) => {
      if (!token) return base(input, init);
      const headers = new Headers(init.headers);
      headers.set('authorization', `Bearer ${token}`);
      return base(input, { ...init, headers });
    };
    return sendAuthorized(tokens, own, send, readAuthRefusal);
  };
}
