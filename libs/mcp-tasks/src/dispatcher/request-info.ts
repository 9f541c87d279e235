import type { TraceContext } from '../telemetry/tracing.js';
import type { Principal } from '../context/tool-context.js';
import type { ProgressSink } from '../context/sync-tool.context.js';

/** What the endpoint learned about one request before dispatching it. */
export interface RequestInfo {
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
  /** MRTR answers of this round (the SDK lifts them out of params; see the endpoint). */
  inputResponses?: Record<string, unknown>;
  /** The caller's trace context (from `_meta.traceparent` or the HTTP headers). */
  traceContext: TraceContext;
}

/** Whether *this* request declared the Tasks extension. */
export const declaresTasks = (caps: Record<string, any>): boolean =>
  !!caps?.extensions && typeof caps.extensions === 'object' && 'io.modelcontextprotocol/tasks' in caps.extensions;
