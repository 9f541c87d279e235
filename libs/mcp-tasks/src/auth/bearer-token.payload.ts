/** Passport-jwt's reading of the header: the first two words, the scheme case-insensitive. */
const AUTHORIZATION = /(\S+)\s+(\S+)/;

/**
 * The claims of the JWT in an `Authorization: Bearer` header, read as passport-jwt's extractor reads the header,
 * NOT verified: call it only once a strategy verified that very token. `undefined` for anything but a JWT whose
 * payload is a JSON object (an opaque token, another scheme).
 */
export function bearerPayload(header: string | undefined): Record<string, unknown> | undefined {
  const words = header === undefined ? null : AUTHORIZATION.exec(header);
  if (!words || words[1].toLowerCase() !== 'bearer') return undefined;
  const parts = words[2].split('.');
  if (parts.length !== 3) return undefined;
  try {
    const payload: unknown = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    return payload && typeof payload === 'object' && !Array.isArray(payload)
      ? (payload as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
