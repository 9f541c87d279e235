import { createHmac } from 'node:crypto';
import { HmacSealer } from '../common/hmac.sealer.js';

/**
 * Tokens a client keeps and hands back unchanged (a session id, a list cursor): `<kind>.<payload>.<mac>`, sealed
 * (`HmacSealer`) with a key derived from the secret for that kind alone, so no token of one kind (nor a
 * `requestState`) passes as another. Visible ASCII only, as the transport asks of session ids.
 */
export class SealedToken<T extends object> {
  private readonly sealer: HmacSealer;

  constructor(
    secret: Buffer,
    private readonly kind: string,
  ) {
    this.sealer = new HmacSealer(createHmac('sha256', secret).update(`mcp-tasks/${kind}/v1`).digest());
  }

  seal(payload: T): string {
    return `${this.kind}.${this.sealer.seal(payload)}`;
  }

  /** The payload, or `undefined` for anything this key did not seal. */
  open(token: unknown): T | undefined {
    if (typeof token !== 'string' || token.length > 8192 || !token.startsWith(`${this.kind}.`)) return undefined;
    return this.sealer.open(token.slice(this.kind.length + 1)) as T | undefined;
  }
}
