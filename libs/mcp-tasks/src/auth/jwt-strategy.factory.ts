import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import type * as JwksRsa from 'jwks-rsa';
import type * as PassportJwt from 'passport-jwt';
import type { Strategy, StrategyOptionsWithoutRequest } from 'passport-jwt';
import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';
import { hsJwtVerifier, isPemKey } from './hs-jwt.verifier.js';
import type { TokenVerifier } from './token-verifier.interface.js';

/**
 * The module's own bearer-token check: tokens signed with a shared secret are checked by
 * `hsJwtVerifier` (no peer needed), the others by passport-jwt (`passportJwtVerifier`).
 */
export async function jwtVerifier(auth: McpAuthOptions): Promise<TokenVerifier> {
  if (!auth.secretOrKey && !auth.jwksUri)
    throw new Error('McpTasksModule: invalid options: auth needs secretOrKey, jwksUri or strategy');
  if (!auth.issuer)
    throw new Error('McpTasksModule: invalid options: auth.issuer is required with the built-in JWT strategy');
  return hsJwtVerifier(auth) ?? passportJwtVerifier(auth);
}

/**
 * Public keys and JWKS: a passport-jwt strategy (signature, expiry, issuer and audience), run the way
 * passport runs one — but on a stand-in request carrying only the headers. Passport's middleware adds
 * half a dozen methods to the request it is given; on Node's request object that reshape made a
 * never-seen token cost four times its verification.
 */
export async function passportJwtVerifier(auth: McpAuthOptions): Promise<TokenVerifier> {
  const { ExtractJwt, Strategy } = cjsExports<typeof PassportJwt>(
    await loadPeer('passport-jwt', 'auth (the built-in JWT strategy)'),
  );
  const jwks = auth.jwksUri ? cjsExports<typeof JwksRsa>(await loadPeer('jwks-rsa', 'auth.jwksUri')) : undefined;
  const key = jwks
    ? {
        secretOrKeyProvider: jwks.passportJwtSecret({
          jwksUri: auth.jwksUri!,
          cache: true,
          rateLimit: true,
          jwksRequestsPerMinute: 10,
        }),
      }
    : { secretOrKey: keyObjectOf(auth.secretOrKey!) };
  const options = {
    jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
    issuer: auth.issuer,
    // Without a configured resource the audience is checked per request (see BearerAuthenticator).
    ...((auth.audience ?? auth.resource) ? { audience: auth.audience ?? auth.resource } : {}),
    algorithms: auth.algorithms ?? (auth.jwksUri ? ['RS256', 'ES256'] : ['HS256']),
    ...key,
  } as StrategyOptionsWithoutRequest;
  const strategy = new Strategy(options, (payload: unknown, done: (err: unknown, user: unknown) => void) =>
    done(null, payload),
  );
  return (req) =>
    new Promise((resolve, reject) => {
      const attempt = Object.create(strategy) as Strategy & Record<'success' | 'fail' | 'error', (x: unknown) => void>;
      attempt.success = (user) => resolve({ user });
      attempt.fail = (info) => resolve({ info });
      attempt.error = reject;
      // jsonwebtoken throws on some tokens instead of calling back (a signed `null` payload): a refusal too.
      try {
        attempt.authenticate({ headers: req.headers } as never, { session: false });
      } catch (err) {
        resolve({ info: err });
      }
    });
}

/**
 * The key as a `KeyObject`, built once: handed a string, jsonwebtoken first tries (and fails) to
 * parse it as a public key on every verification, which costs ~50× the HMAC itself.
 */
function keyObjectOf(key: string | Buffer): KeyObject {
  return isPemKey(key) ? createPublicKey(key) : createSecretKey(Buffer.from(key));
}
