/**
 * Why a token's audience is refused, naming the claim and what to change: tokens minted without `aud` (as
 * `JwtService.sign` makes them) are the usual first failure of an app's own strategy. The token's own `aud` is
 * not echoed: it is the caller's text, and it would go into a response header.
 */
export function audienceRefusal(aud: unknown, accepted: string[], appStrategy: boolean): string {
  const names = accepted.map((a) => `"${a}"`).join(' or ');
  if (aud !== undefined)
    return `the token was not issued for this resource: its aud must name ${names} (auth.audience)`;
  if (!appStrategy) return `the token names no audience (aud): it must name ${names}`;
  return (
    `the token names no audience (aud): give tokens an aud of ${names} (@nestjs/jwt: signOptions.audience), ` +
    'or set auth.requireAudience: false to accept tokens without one'
  );
}
