import { createHash } from 'node:crypto';
import { sameOwner } from '../owner/owner-key.js';
import { RpcError } from '../protocol/rpc.error.js';

/** The call a `requestState` was issued for: it is good for that call only. */
export interface CallBinding {
  /** Tool the state was issued for. */
  tool: string;
  /** Owner key of the caller it was issued to. */
  owner: string;
  /** Digest of the call's arguments (`digestOf`): the state is useless with other arguments. */
  args: string;
}

/** Refuses (`-32602`) a state past its expiry (epoch ms) or issued for another call. */
export function checkBinding(state: CallBinding & { exp: number }, expect: CallBinding, now: number): void {
  if (state.exp <= now) throw RpcError.invalidParams('requestState has expired; call the tool again without it');
  if (state.tool !== expect.tool || !sameOwner(state.owner, expect.owner) || state.args !== expect.args) {
    throw invalidRequestState();
  }
}

export const invalidRequestState = (): RpcError => RpcError.invalidParams('Invalid requestState');

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
