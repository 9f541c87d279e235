import { PassportStrategy } from '@nestjs/passport';
import { createPublicKey, createSecretKey, type KeyObject } from 'node:crypto';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy, type StrategyOptionsWithoutRequest } from 'passport-jwt';
import type { McpAuthOptions } from './mcp-auth-options.interface.js';

/**
 * The module's own bearer-token strategy (passport-jwt through @nestjs/passport), registered with
 * passport under `name`. Signature, expiry, issuer and audience are verified by passport-jwt.
 */
export function registerJwtStrategy(name: string, auth: McpAuthOptions): void {
  if (!auth.secretOrKey && !auth.jwksUri) throw new Error('McpTasksModule: invalid options: auth needs secretOrKey, jwksUri or strategy');
  if (!auth.issuer) throw new Error('McpTasksModule: invalid options: auth.issuer is required with the built-in JWT strategy');
  const key = auth.jwksUri
    ? { secretOrKeyProvider: passportJwtSecret({ jwksUri: auth.jwksUri, cache: true, rateLimit: true, jwksRequestsPerMinute: 10 }) }
    : { secretOrKey: keyObjectOf(auth.secretOrKey!) };
  const options = {
    jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
    issuer: auth.issuer,
    audience: auth.audience ?? auth.resource,
    algorithms: auth.algorithms ?? (auth.jwksUri ? ['RS256', 'ES256'] : ['HS256']),
    ...key,
  } as StrategyOptionsWithoutRequest;

  // Constructing a PassportStrategy registers it with passport under `name`.
  class McpJwtStrategy extends PassportStrategy(Strategy, name) {
    constructor() {
      super(options);
    }

    validate(payload: Record<string, unknown>): Record<string, unknown> {
      return payload;
    }
  }
  new McpJwtStrategy();
}

/**
 * The key as a `KeyObject`, built once: handed a string, jsonwebtoken first tries (and fails) to
 * parse it as a public key on every verification, which costs ~50× the HMAC itself.
 */
function keyObjectOf(key: string | Buffer): KeyObject {
  const text = Buffer.isBuffer(key) ? key.toString('utf8') : key;
  return text.includes('-----BEGIN') ? createPublicKey(text) : createSecretKey(Buffer.isBuffer(key) ? key : Buffer.from(key));
}
