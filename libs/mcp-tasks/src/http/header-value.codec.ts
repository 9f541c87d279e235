/** SEP-2243's sentinel for a value that is not plain ASCII: `=?base64?<UTF-8, base64>?=`. */
const SENTINEL = /^=\?base64\?(.*)\?=$/s;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What a plain header value may hold (RFC 9110 field values: visible ASCII, space, tab). */
const PLAIN = /^[\t\x20-\x7e]*$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A mirrored header's value as the body would hold it (`Mcp-Name`, `Mcp-Param-*`): white space around it dropped
 * (not part of a field value), a sentinel value decoded; `undefined` when it cannot be one — base64 that is not
 * canonical (bad padding, characters outside the alphabet), bytes that are not UTF-8, or characters a plain value
 * may not hold.
 */
export function headerValue(raw: string): string | undefined {
  const value = raw.trim();
  const encoded = SENTINEL.exec(value);
  if (!encoded) return PLAIN.test(value) ? value : undefined;
  if (!BASE64.test(encoded[1])) return undefined;
  try {
    return utf8.decode(Buffer.from(encoded[1], 'base64'));
  } catch {
    return undefined;
  }
}
