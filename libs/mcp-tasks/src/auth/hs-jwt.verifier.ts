import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';
import { hmacSigner, type HmacHash } from './hmac.signer.js';
import { claimsProblem } from './jwt-claims.check.js';
import type { StrategyOutcome, TokenVerifier } from './token-verifier.interface.js';

const HASH_OF: Record<string, HmacHash> = { HS256: 'sha256', HS384: 'sha384', HS512: 'sha512' };
/** Header, payload and an optional signature, each base64url (as jws checks before decoding anything). */
const COMPACT = /^[\w-]+\.[\w-]+\.[\w-]*$/;
/** Passport-jwt's reading of the header: the first two words, the scheme case-insensitive. */
const AUTHORIZATION = /(\S+)\s+(\S+)/;
/** The usual header, `Bearer` and a compact token: the same token as the reading above, found in one pass. */
const PLAIN_BEARER = /^bearer ([\w-]+\.[\w-]+\.[\w-]*)$/i;

/**
 * The built-in check of tokens signed with a shared secret (HS256/384/512): the same rules as
 * passport-jwt + jsonwebtoken (alg allow-list, signature, nbf, exp, audience, issuer), held to them
 * token by token by a property test. Why not theirs: a never-seen token is verified on the request's
 * path, and there jsonwebtoken's `createHmac` per token (an OpenSSL context and a stream object,
 * ~10 µs of a busy server's time in the profile) and its second decode of the header made auth cost
 * 1.6–1.8× a request without it. `undefined` unless the options are a shared secret with HMAC
 * algorithms only: public keys and JWKS stay with passport-jwt.
 */
export function hsJwtVerifier(auth: McpAuthOptions): TokenVerifier | undefined {
  const algorithms = auth.algorithms ?? ['HS256'];
  const secret = auth.secretOrKey;
  if (auth.jwksUri || secret === undefined || !algorithms.every((a) => Object.hasOwn(HASH_OF, a))) return undefined;
  if (isPemKey(secret)) return undefined;
  const key = Buffer.from(secret);
  // The accepted algorithms, each with its signer: an alg not in this map is refused.
  const signers = new Map(algorithms.map((a) => [a, hmacSigner(HASH_OF[a], key)]));
  const audience = auth.audience ?? auth.resource;
  // As passport-jwt: an empty audience option means none (the authenticator still checks the resource).
  const rules = { issuer: [auth.issuer!].flat(), audience: audience ? [audience].flat() : undefined };
  // The payload is decoded into this buffer (checks are synchronous): no Buffer allocated per token.
  let scratch = Buffer.alloc(2048);
  const verify = (token: string, compact: boolean): StrategyOutcome => {
    if (!compact && !COMPACT.test(token)) return refused('the token is malformed');
    const signedEnd = token.lastIndexOf('.');
    const payloadStart = token.indexOf('.') + 1;
    const sign = signers.get(algOf(token.slice(0, payloadStart - 1)) as string);
    if (!sign) return refused('the token is signed with an algorithm not accepted');
    const signature = token.slice(signedEnd + 1);
    const expected = sign(token.slice(0, signedEnd));
    // Compared as base64url text, as jws does: another spelling of the same bytes is refused too.
    if (!sameText(signature, expected)) return refused('the token signature does not verify');
    const encoded = token.slice(payloadStart, signedEnd);
    if (encoded.length > scratch.length) scratch = Buffer.alloc(encoded.length * 2);
    const claims = parseJson(scratch.toString('utf8', 0, scratch.write(encoded, 0, 'base64url')));
    if (!claims || typeof claims !== 'object' || Array.isArray(claims)) return refused('the token carries no claims');
    const problem = claimsProblem(claims as Record<string, unknown>, rules, Math.floor(Date.now() / 1000));
    return problem ? refused(problem) : { user: claims };
  };
  return (req) => {
    const header = req.headers.authorization;
    if (typeof header !== 'string') return refused('No auth token');
    const plain = PLAIN_BEARER.exec(header);
    if (plain) return verify(plain[1], true);
    const match = AUTHORIZATION.exec(header);
    return match && match[1].toLowerCase() === 'bearer' ? verify(match[2], false) : refused('No auth token');
  };
}

/** A PEM key (public key material for passport-jwt), not a shared secret. */
export const isPemKey = (key: string | Buffer): boolean =>
  (Buffer.isBuffer(key) ? key.toString('utf8') : key).includes('-----BEGIN');

const refused = (info: string): StrategyOutcome => ({ info });

/** Whether two texts are equal, in a time that depends on their length only (a signature is no oracle). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

// An issuer's tokens share a few header texts: each is decoded once (a pure function of the text).
const headerAlgs = new Map<string, unknown>();
function algOf(encodedHeader: string): unknown {
  if (headerAlgs.has(encodedHeader)) return headerAlgs.get(encodedHeader);
  const header = parseJson(Buffer.from(encodedHeader, 'base64url').toString('latin1'));
  const alg = (header as { alg?: unknown } | null | undefined)?.alg;
  if (headerAlgs.size >= 64) headerAlgs.clear();
  headerAlgs.set(encodedHeader, alg);
  return alg;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
