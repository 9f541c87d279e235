import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { checkBinding, invalidRequestState, type CallBinding } from '../input/request-state.binding.js';

/** What the gateway's `requestState` for a proxied MRTR round carries (bound to the served tool's call). */
export interface UpstreamRoundState extends CallBinding {
  /** Keys the upstream asked in this round: only answers to them are passed on. */
  asked: string[];
  /** The upstream's own `requestState`, echoed back to it untouched. */
  state?: unknown;
}

const IV = 12;
const TAG = 16;

/**
 * Seals the `requestState` of a proxied MRTR round with AES-256-GCM (a key derived from `requestStateSecret`, so
 * instances that share the secret share it): the caller can neither read the upstream's state inside (which may
 * name upstream internals) nor change anything, and a state issued for another call, caller or arguments, or
 * expired, is refused.
 */
export class UpstreamStateCodec {
  private readonly key: Buffer;

  constructor(
    secret: Buffer,
    private readonly ttlMs: number,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'mcp-tasks: upstream requestState', 32));
  }

  seal(round: UpstreamRoundState, now = Date.now()): string {
    const iv = randomBytes(IV);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const plain = Buffer.from(JSON.stringify({ ...round, exp: now + this.ttlMs }));
    return Buffer.concat([iv, cipher.update(plain), cipher.final(), cipher.getAuthTag()]).toString('base64url');
  }

  open(sealed: unknown, expect: CallBinding, now = Date.now()): UpstreamRoundState {
    if (typeof sealed !== 'string') throw invalidRequestState();
    const raw = Buffer.from(sealed, 'base64url');
    if (raw.length <= IV + TAG) throw invalidRequestState();
    let round: UpstreamRoundState & { exp: number };
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, IV));
      decipher.setAuthTag(raw.subarray(raw.length - TAG));
      const plain = Buffer.concat([decipher.update(raw.subarray(IV, raw.length - TAG)), decipher.final()]);
      round = JSON.parse(plain.toString('utf8')) as UpstreamRoundState & { exp: number };
    } catch {
      throw invalidRequestState();
    }
    checkBinding(round, expect, now);
    return round;
  }
}
