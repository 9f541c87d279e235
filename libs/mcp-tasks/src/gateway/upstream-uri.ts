/*
 * An upstream resource's URI as served here: the upstream's name and `+` before its own URI (`files+file:///a.txt`,
 * a template `files+test://t/{id}`). Names are letters, digits and `-`, so a name starting with a letter makes the
 * whole a valid URI scheme (RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )); a template stays a template, and
 * the first `+` splits it one way only (a name has none).
 */

/** The served URI (or URI template) of an upstream's `uri`. */
export const servedUri = (upstream: string, uri: string): string => `${upstream}+${uri}`;

/** The upstream name and its own URI in a served URI; `undefined` for a URI without the prefix. */
export function splitServedUri(uri: string): { upstream: string; uri: string } | undefined {
  const plus = uri.indexOf('+');
  const colon = uri.indexOf(':');
  if (plus <= 0 || colon < plus) return undefined;
  return { upstream: uri.slice(0, plus), uri: uri.slice(plus + 1) };
}
