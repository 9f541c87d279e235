import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tokens a client keeps and hands back unchanged (a session id, a list cursor): `<kind>.<payload>.<mac>`, the JSON
 * payload in base64url under an HMAC-SHA256 whose key is derived from the secret for that kind alone, so no token of
 * one kind (nor a `requestState`) passes as another. Visible ASCII only, as the transport asks of session ids.
 */
export class SealedToken<T extends object> {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly kind: string,
  ) {
    this.key = createHmac('sha256', secret).update(`mcp-tasks/${kind}/v1`).digest();
  }

  seal(payload: T): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${this.kind}.${body}.${this.mac(body)}`;
  }

  /** The payload, or `undefined` for anything this key did not seal. */
  open(token: unknown): T | undefined {
    if (typeof token !== 'string' || token.length > 8192) return undefined;
    const [kind, body, mac, extra] = token.split('.');
    if (kind !== this.kind || !body || !mac || extra !== undefined) return undefined;
    const want = Buffer.from(this.mac(body));
    const got = Buffer.from(mac);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return undefined;
    try {
      const payload: unknown = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      return payload && typeof payload === 'object' ? (payload as T) : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

/** A short digest of an owner key: binds a token to its owner without putting who they are in it. */
export const ownerDigest = (ownerKey: string): string =>
  createHash('sha256').update(ownerKey).digest('base64url').slice(0, 22);
