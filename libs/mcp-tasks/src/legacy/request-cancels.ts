import { Injectable } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';

/**
 * `notifications/cancelled` for requests in flight on this instance: a `tools/call` running in the request is
 * aborted, an open `tasks/result` ends without an answer. Never a task: the spec keeps that notification off tasks
 * (`tasks/cancel` is how). Keyed by who sent the request, so nobody else can cancel it.
 */
@Injectable()
export class RequestCancels {
  private readonly open = new Map<string, () => void>();

  /** Registers `onCancel` for the request; returns the function that forgets it. */
  register(caller: Principal, session: string | undefined, requestId: unknown, onCancel: () => void): () => void {
    const key = keyOf(caller, session, requestId);
    this.open.set(key, onCancel);
    return () => {
      if (this.open.get(key) === onCancel) this.open.delete(key);
    };
  }

  cancel(caller: Principal, session: string | undefined, requestId: unknown): void {
    const key = keyOf(caller, session, requestId);
    const onCancel = this.open.get(key);
    this.open.delete(key);
    onCancel?.();
  }
}

const keyOf = (caller: Principal, session: string | undefined, requestId: unknown): string =>
  JSON.stringify([caller.key, session ?? null, requestId ?? null]);
