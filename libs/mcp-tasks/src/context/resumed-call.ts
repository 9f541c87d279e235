import type { TraceContext } from '../common/trace-context.js';
import type { ResumedCall, TaskRecord } from '../store/task.record.js';
import type { ToolCallOrigin } from './base-tool.context.js';

/** What a resumable task keeps of the call that created it: its origin without the trace context (not JSON). */
export const resumedCallOf = (origin: ToolCallOrigin): ResumedCall => ({
  protocolVersion: origin.protocolVersion,
  clientCapabilities: origin.clientCapabilities,
  ...(origin.clientInfo !== undefined ? { clientInfo: origin.clientInfo } : {}),
  principal: origin.principal,
  requestId: origin.requestId,
});

/** The origin a later attempt of `task` runs with: the stored call, in the trace context it runs in now. */
export const resumedOrigin = (task: TaskRecord, call: ResumedCall, traceContext: TraceContext): ToolCallOrigin => ({
  tool: task.tool,
  protocolVersion: call.protocolVersion,
  clientCapabilities: call.clientCapabilities,
  clientInfo: call.clientInfo,
  principal: call.principal,
  requestId: call.requestId,
  traceContext,
});
