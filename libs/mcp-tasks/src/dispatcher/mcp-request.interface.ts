import type { HttpContext } from '../common/http-context.interface.js';
import type { Principal } from '../common/principal.interface.js';
import type { TraceContext } from '../common/trace-context.js';
import type { LogSink } from '../context/log.sink.js';
import type { ProgressSink } from '../context/progress.sink.js';
import type { QuestionChannel } from '../context/question.channel.js';
import type { TaskCallVariant } from './task-call.variant.js';

/**
 * One MCP request the library answers, as the HTTP exchange (or the legacy SDK path) parsed and checked it: what
 * the dispatcher and the handlers behind it work from.
 */
export interface McpRequest {
  id: string | number;
  method: string;
  params: Record<string, any>;
  protocolVersion: string;
  clientCapabilities: Record<string, any>;
  clientInfo?: Record<string, unknown>;
  principal: Principal;
  /** Aborted when the client goes away mid-request. */
  signal: AbortSignal;
  /** Present when the request carried a `progressToken` and the reply can stream. */
  progress?: ProgressSink;
  /** Present when the client asked for log messages of this request and the reply can stream. */
  log?: LogSink;
  /** MRTR answers of this round (the SDK lifts them out of params, so they travel here). */
  inputResponses?: Record<string, unknown>;
  /** The HTTP request and response that carried it (what the app's enhancers read with `switchToHttp()`). */
  http: HttpContext;
  /** The caller's trace context (from `_meta.traceparent` or the HTTP headers). */
  traceContext: TraceContext;
  /** A `tools/call` of the 2025-11-25 wire: how it differs (absent on 2026-07-28). */
  variant?: TaskCallVariant;
  /**
   * A 2025-era synchronous `tools/call` whose client declared what a question needs: asks it over the call's stream
   * (absent otherwise; 2026-07-28 asks with MRTR rounds instead).
   */
  questions?: QuestionChannel;
  /** The 2025-11-25 session the request came in, if any (without `auth` it binds the tasks it sees). */
  session?: string;
  /** Closes the request's connection, its reply going on for a `Last-Event-ID` resume (2025-11-25, a session). */
  closeStream?: () => boolean;
}
