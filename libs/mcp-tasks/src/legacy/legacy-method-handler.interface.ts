import type { Principal } from '../common/principal.interface.js';
import type { LegacyExchange } from './legacy-exchange.js';
import type { LegacySession } from './legacy-session.js';

/** A 2025-era request the legacy wire answers itself. */
export interface LegacyRequest {
  id: string | number;
  method: string;
  /** `params` when it is an object, else `{}`. */
  params: Record<string, unknown>;
  principal: Principal;
  session?: LegacySession;
  /**
   * The version it speaks: its `MCP-Protocol-Version` header, else its session's, else 2025-03-26 (a method that
   * settles the version, `initialize`, has its header unread).
   */
  version: string;
}

/** Answers one method of the 2025-era table (`legacy-methods.table.ts`). */
export interface LegacyMethodHandler {
  /** Whether this server offers the method (the SDK answers it when not); offered when absent. */
  offered?(): boolean;
  /** Answers on `x`; what it throws is answered as the 2025 era answers failures (`legacyError`). */
  serve(req: LegacyRequest, x: LegacyExchange): Promise<void> | void;
}
