import type { InputRequest } from '../protocol/wire.interface.js';

/**
 * Asks the client a question now, as a JSON-RPC request on the open stream of its synchronous `tools/call`, and
 * waits for the answer: how a 2025-era client (2025-06-18, 2025-11-25; sampling and roots since 2024-11-05) that
 * declared the capability is asked, since that era has no MRTR. Present on a request only where that holds.
 */
export interface QuestionChannel {
  /**
   * Resolves with the client's result for `request` (asked under `key`). Rejects with an `RpcError`: the client
   * answered with an error, sent a result of the wrong shape, or no answer came in time; rejects with the signal's
   * reason when `signal` aborts (the stream closed, the call was cancelled).
   */
  ask(key: string, request: InputRequest, signal: AbortSignal): Promise<unknown>;
}
