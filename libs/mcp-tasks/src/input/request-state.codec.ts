import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { RpcError } from '../protocol/rpc-error.js';
import type { InputRequest } from '../protocol/wire.types.js';

/** What an MRTR `requestState` carries between rounds: the answers so far, bound to one call. */
export interface RequestStatePayload {
  /** Tool the state was issued for. */
  tool: string;
  /** Owner key of the caller it was issued to. */
  owner: string;
  /** Digest of the call's arguments: the state is useless with other arguments. */
  args: string;
  /** Answers collected in earlier rounds, by input key. */
  answers: Record<string, unknown>;
  /** The questions the round that issued the state asked (key → method): the only answers its retry may add. */
  asked: Record<string, InputRequest['method']>;
  /** Expiry, epoch ms. */
  exp: number;
}

/**
 * Seals MRTR `requestState` with HMAC-SHA256. The client echoes it back untouched; anything it
 * changes, or a state issued to someone else, for another call, or expired, is refused.
 */
export class RequestStateCodec {
  constructor(
    private readonly secret: Buffer,
    private readonly ttlMs: number,
  ) {}

  seal(p: Omit<RequestStatePayload, 'exp'>, now = Date.now()): string {
    const body = Buffer.from(JSON.stringify({ ...p, exp: now + this.ttlMs })).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  open(
    state: unknown,
    expect: { tool: string; owner: string; args: string },
    now = Date.now(),
  ): Pick<RequestStatePayload, 'answers' | 'asked'> {
    if (typeof state !== 'string') throw invalid();
    const [body, mac, extra] = state.split('.');
    if (!body || !mac || extra !== undefined) throw invalid();
    const want = Buffer.from(this.mac(body));
    const got = Buffer.from(mac);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw invalid();
    let p: RequestStatePayload;
    try {
      p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as RequestStatePayload;
    } catch {
      throw invalid();
    }
    if (p.exp <= now) throw RpcError.invalidParams('requestState has expired; call the tool again without it');
    if (p.tool !== expect.tool || p.owner !== expect.owner || p.args !== expect.args) throw invalid();
    return { answers: p.answers ?? {}, asked: p.asked ?? {} };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

const invalid = (): RpcError => RpcError.invalidParams('Invalid requestState');

/** Order-independent digest of a JSON value (object keys sorted). */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('base64url');
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value as object)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
