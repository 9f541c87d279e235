import { HmacSealer } from '../common/hmac.sealer.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { checkBinding, invalidRequestState, type CallBinding } from './request-state.binding.js';

/** What an MRTR `requestState` carries between rounds: the answers so far, bound to one call. */
export interface RequestStatePayload extends CallBinding {
  /** Answers collected in earlier rounds, by input key. */
  answers: Record<string, unknown>;
  /** The questions the round that issued the state asked (key → method): the only answers its retry may add. */
  asked: Record<string, InputRequest['method']>;
  /** Expiry, epoch ms. */
  exp: number;
}

/**
 * Seals MRTR `requestState` (`HmacSealer`, keyed with the secret itself). The client echoes it back untouched;
 * anything it changes, or a state issued to someone else, for another call, or expired, is refused.
 */
export class RequestStateCodec {
  private readonly sealer: HmacSealer;

  constructor(
    secret: Buffer,
    private readonly ttlMs: number,
  ) {
    this.sealer = new HmacSealer(secret);
  }

  seal(p: Omit<RequestStatePayload, 'exp'>, now = Date.now()): string {
    return this.sealer.seal({ ...p, exp: now + this.ttlMs });
  }

  open(state: unknown, expect: CallBinding, now = Date.now()): Pick<RequestStatePayload, 'answers' | 'asked'> {
    const p = typeof state === 'string' ? (this.sealer.open(state) as RequestStatePayload | undefined) : undefined;
    if (!p) throw invalidRequestState();
    checkBinding(p, expect, now);
    return { answers: p.answers ?? {}, asked: p.asked ?? {} };
  }
}
