import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';
import { audienceRefusal } from './audience.refusal.js';
import { unauthorized } from './auth-challenge.error.js';
import type { Authenticated } from './authenticated.interface.js';
import { acceptedAudience, identityOf, subjectText, type Identity } from './claims-principal.js';
import { describeRefusal } from './refusal.describe.js';
import type { StrategyOutcome } from './token-verifier.interface.js';

/**
 * A strategy's verdict on a request: who the caller is for `resource`, or a 401 saying which claim or option to look
 * at. RFC 8707: the token must be minted for this resource, whichever strategy verified it.
 */
export function acceptedOutcome(outcome: StrategyOutcome, auth: McpAuthOptions, resource: string): Authenticated {
  if (!outcome.user) throw unauthorized(resource, describeRefusal(outcome.info));
  const claims = claimsOf(outcome.user, outcome.token);
  const accepted = [auth.audience ?? resource].flat();
  const matched =
    claims.aud === undefined && auth.requireAudience === false ? resource : acceptedAudience(claims.aud, accepted);
  if (!matched) throw unauthorized(resource, audienceRefusal(claims.aud, accepted, !!auth.strategy));
  const identity = identityFor(outcome.user, claims, auth);
  if (!identity.subject) throw unauthorized(resource, subjectRefusal(auth));
  return { claims, resource: matched, identity };
}

/**
 * An app strategy's user as claims, each claim it lacks read from the token it verified: the Nest docs' `validate()`
 * returns `{ userId, username }`, and `sub`, `aud` and `scope` stay in the token. The user's own fields win.
 */
function claimsOf(user: unknown, token: Record<string, unknown> | undefined): Record<string, unknown> {
  const own = (typeof user === 'object' ? user : {}) as Record<string, unknown>;
  if (!token) return own;
  // Built as entries: a `__proto__` key in either stays a plain key.
  return Object.fromEntries([...Object.entries(token), ...Object.entries(own).filter(([, v]) => v !== undefined)]);
}

/** Who the caller is: from the claims, or as `auth.principal` says (what it leaves out read from the claims). */
function identityFor(user: unknown, claims: Record<string, unknown>, auth: McpAuthOptions): Identity {
  const read = identityOf(claims);
  if (!auth.principal) return read;
  const given = auth.principal(user, claims);
  return {
    subject: subjectText(given?.subject) ?? '',
    scopes: Array.isArray(given?.scopes) ? given.scopes.map(String) : read.scopes,
    client: typeof given?.client === 'string' ? given.client : read.client,
  };
}

function subjectRefusal(auth: McpAuthOptions): string {
  if (auth.principal) return 'auth.principal gave no subject (a non-empty string or a number) for this caller';
  if (!auth.strategy) return 'the token names no subject (sub)';
  return (
    "neither the strategy's user nor its token has a subject (sub, a string or a number): " +
    'return one from validate(), or set auth.principal to map the user'
  );
}
