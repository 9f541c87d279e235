import { audienceRefusal } from './audience.refusal.js';
import { acceptedAudience } from './claims-principal.js';

/** What a token's claims must satisfy: an accepted issuer and, when given, one of the audiences. */
export interface ClaimRules {
  issuer: string[];
  audience?: string[];
}

/**
 * Why verified claims are refused (`undefined` if they are not), by the rules jsonwebtoken applies
 * with no clock tolerance: `nbf` and `exp` are NumericDates when present, valid from `nbf` and
 * until (not at) `exp`; `aud`, one value or a list, must name an accepted audience.
 */
export function claimsProblem(claims: Record<string, unknown>, rules: ClaimRules, now: number): string | undefined {
  const { nbf, exp, aud, iss } = claims;
  if (nbf !== undefined && typeof nbf !== 'number') return 'the token has an invalid nbf';
  if (typeof nbf === 'number' && nbf > now) return 'the token is not valid yet';
  if (exp !== undefined && typeof exp !== 'number') return 'the token has an invalid exp';
  if (typeof exp === 'number' && now >= exp) return 'the token has expired';
  if (rules.audience && !acceptedAudience(aud, rules.audience)) return audienceRefusal(aud, rules.audience, false);
  if (!rules.issuer.includes(iss as string)) return 'the token was not issued by an accepted issuer';
  return undefined;
}
