import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PassportStatic } from 'passport';
import { bearerPayload } from './bearer-token.payload.js';
import type { StrategyOutcome, TokenVerifier } from './token-verifier.interface.js';

/**
 * An app's strategy, registered with passport under `name`, run through passport (it may read anything on the
 * request). On success the outcome carries the bearer token's claims too (`token`), for the claims its user lacks
 * (the Nest docs' `validate()` returns `{ userId, username }`) — but only if the strategy read the `Authorization`
 * header: one that authenticated by something else (a cookie, an API key) vouches for nothing in it.
 */
export function passportVerifier(passport: PassportStatic, name: string): TokenVerifier {
  return (req) =>
    new Promise<StrategyOutcome>((resolve, reject) => {
      const read = { authorization: false };
      passport.authenticate(name, { session: false }, (err: unknown, user: unknown, info: unknown) => {
        if (err) return reject(err);
        const token = user && read.authorization ? bearerPayload(req.headers.authorization) : undefined;
        resolve({ user, info, token });
      })(watched(req, read), {} as ServerResponse, (e?: unknown) => (e ? reject(e) : resolve({})));
    });
}

/**
 * The request as the strategy sees it, noting whether it read `Authorization`: a stand-in whose prototype is the
 * request (every property and method reads through), with headers that report that read. What passport adds to
 * the request it is given lands on the stand-in.
 */
function watched(req: IncomingMessage, read: { authorization: boolean }): IncomingMessage {
  const headers = new Proxy(req.headers, {
    get(target, key) {
      if (key === 'authorization') read.authorization = true;
      return Reflect.get(target, key);
    },
  });
  return Object.create(req, {
    headers: { value: headers, enumerable: true, writable: true, configurable: true },
  }) as IncomingMessage;
}
