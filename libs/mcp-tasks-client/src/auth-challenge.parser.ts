/** The parameters of a `WWW-Authenticate: Bearer …` challenge (RFC 6750, RFC 9728), unquoted. */
export type BearerChallenge = Record<string, string>;

const PARAM = /([A-Za-z][\w-]*)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s,]*)/gy;
const SEPARATOR = /[\s,]*/y;

/** The Bearer challenge's parameters; empty when the header has none (or names another scheme only). */
export function parseBearerChallenge(header: string | null): BearerChallenge {
  const start = header ? /(?:^|[\s,])Bearer(?:\s+|$)/i.exec(header) : null;
  if (!header || !start) return {};
  const params: BearerChallenge = {};
  let at = start.index + start[0].length;
  for (;;) {
    SEPARATOR.lastIndex = at;
    at += SEPARATOR.exec(header)![0].length;
    PARAM.lastIndex = at;
    const match = PARAM.exec(header);
    // A token without `=` starts the next scheme's challenge.
    if (!match) return params;
    const [, key, raw] = match;
    params[key.toLowerCase()] = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    at = PARAM.lastIndex;
  }
}
