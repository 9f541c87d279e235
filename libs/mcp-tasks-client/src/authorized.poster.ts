import { readAuthRefusal } from './auth-refusal.reader.js';
import { sendAuthorized } from './authorized.send.js';
import type { KeepAlivePoster, PostReply } from './keep-alive.poster.js';
import type { TokenSource } from './token.source.js';

/** The POSTs a connection sends itself (`request`), with its token and auth errors as `authorizedFetch` has them. */
export interface ConnectionPoster {
  post(headers: Record<string, string>, body: string, signal?: AbortSignal): Promise<PostReply>;
  /** Closes the connection's sockets. */
  close(): void;
}

/** `poster`'s POSTs with the connection's token; a request with an `authorization` header of its own keeps it. */
export function authorizedPoster(tokens: TokenSource, poster: KeepAlivePoster): ConnectionPoster {
  return {
    post(headers, body, signal) {
      const own = headers.authorization !== undefined;
      const send = (token: string | undefined) =>
        poster.post(token ? { ...headers, authorization: `Bearer ${token}` } : headers, body, signal);
      return sendAuthorized(tokens, own, send, (reply) => readAuthRefusal(asResponse(reply)));
    },
    close: () => poster.close(),
  };
}

/** A refusal as a `Response`, for the reader `fetch`'s refusals go through (rare: no need to be cheap). */
function asResponse({ status, statusText, headers, text }: PostReply): Response {
  const h = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) h.append(name, v);
  }
  return new Response(text, { status, statusText, headers: h });
}
