/** jsonwebtoken's reasons (as passport-jwt passes them on), in the words the module's own check uses. */
const REASONS: Array<[RegExp, string]> = [
  [/^jwt audience invalid\. expected: (.*)$/s, 'the token was not issued for this resource: its aud must name $1'],
  [/^jwt issuer invalid\. expected: (.*)$/s, 'the token was not issued by an accepted issuer: its iss must be $1'],
  [/^invalid signature$/, 'the token signature does not verify'],
  [/^invalid algorithm$/, 'the token is signed with an algorithm not accepted'],
  [/^(jwt malformed|invalid token)$/, 'the token is malformed'],
];

/** Why a strategy refused a token (its `info`), naming the claim at fault where the strategy said which. */
export function describeRefusal(info: unknown): string {
  if (info instanceof Error && info.name === 'TokenExpiredError')
    return `the token has expired${timeOf('exp', (info as Error & { expiredAt?: unknown }).expiredAt)}`;
  if (info instanceof Error && info.name === 'NotBeforeError')
    return `the token is not valid yet${timeOf('nbf', (info as Error & { date?: unknown }).date)}`;
  const message = info instanceof Error ? info.message : typeof info === 'string' ? info : '';
  const known = REASONS.find(([pattern]) => pattern.test(message));
  if (known) return message.replace(known[0], known[1]);
  return message && !/^No auth token$/i.test(message) ? message : 'the bearer token is invalid';
}

const timeOf = (claim: string, at: unknown): string =>
  at instanceof Date && !Number.isNaN(at.getTime()) ? ` (${claim} ${at.toISOString()})` : '';
