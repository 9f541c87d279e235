import type { InputRequest } from '../protocol/wire.interface.js';

/**
 * Asks the client a question now, as a JSON-RPC request on the open stream of its synchronous `tools/call`, and
 * waits for the answer: how a 2025-era client (2025-06-18, 2025-11-25; sampling and roots since 2024-11-05) that
 * declared the capability is asked, since that era has no MRTR. Present on a 2025-era `tools/call` whose client can
 * be asked at least one kind of input in its revision (the legacy handler cannot know yet whether the call will run
 * in the request: only a run in the request uses it); `ask` checks each kind itself.
 */
export interface QuestionChannel {
  /**
   * Resolves with the client's result for `request` (asked under `key`; each call sends a request of its own, so a
   * caller that wants one answer per key keeps it, as `SyncToolContext` does). Rejects with an `RpcError`: `-32600`
   * for a kind the client did not declare or its revision lacks; `-32603` when the client answered with an error,
   * sent a result of the wrong shape, or its answer could not be relayed; `-32001` when no answer came within
   * `questionTimeout`; rejects with the signal's reason when `signal` aborts (the stream closed, the call was
   * cancelled).
   */
  ask(key: string, request: InputRequest, signal: AbortSignal): Promise<unknown>;
}
