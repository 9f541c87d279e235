import { ownerKey } from '../owner/owner-key.js';
import type { Principal } from '../common/principal.interface.js';

/** Scopes from `scope` (space-separated, RFC 8693) or `scp` (array or string). */
export function scopesOf(claims: Record<string, unknown>): string[] {
  const raw = claims.scope ?? claims.scp;
  if (Array.isArray(raw)) return raw.map(String);
  if (typeof raw !== 'string') return [];
  const words = raw.split(' ');
  // Single spaces between words (the usual form) leave no empty word to drop.
  return words.includes('') ? words.filter(Boolean) : words;
}

/** The first audience a token names (`aud`: one or a list) that is accepted, if any. */
export function acceptedAudience(aud: unknown, accepted: string | string[]): string | undefined {
  const ok = (a: unknown): a is string =>
    typeof a === 'string' && (a === accepted || (Array.isArray(accepted) && accepted.includes(a)));
  if (!Array.isArray(aud)) return ok(aud) ? aud : undefined;
  for (const a of aud) if (ok(a)) return a;
  return undefined;
}

/** A claim (JSON from a token) as text for the owner key: anything but a string as its JSON, so no two read alike. */
const claimText = (value: unknown): string =>
  typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);

/** Who a caller is: what a principal and its owner key are made of. */
export interface Identity {
  subject: string;
  scopes: string[];
  client: string;
}

/** A subject: a non-empty string, or a finite number as its decimal text (`JwtService.sign({ sub: user.userId })`). */
export function subjectText(sub: unknown): string | undefined {
  if (typeof sub === 'string') return sub || undefined;
  return typeof sub === 'number' && Number.isFinite(sub) ? String(sub) : undefined;
}

/** Who verified claims say the caller is: `sub` (empty if none), `scope`/`scp`, `azp`/`client_id`. */
export const identityOf = (claims: Record<string, unknown>): Identity => ({
  subject: subjectText(claims.sub) ?? '',
  scopes: scopesOf(claims),
  client: claimText(claims.azp ?? claims.client_id),
});

/**
 * A verified token as a principal. The owner key is (subject, server, OAuth client, resource): the same
 * person through another client, resource or server owns nothing here. `keyOf` lets a caller reuse keys.
 */
export function principalFromClaims(
  claims: Record<string, unknown>,
  server: string,
  resource: string,
  keyOf: typeof ownerKey = ownerKey,
  { subject, scopes, client }: Identity = identityOf(claims),
): Principal {
  return { subject, scopes, claims, resource, key: keyOf(subject, server, client, resource) };
}
