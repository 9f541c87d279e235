import { traceCarrier } from '../gateway/trace-carrier.js';
import type { RelayOrigin } from '../gateway/upstream-task.relay.js';
import type { McpTracing } from '../telemetry/tracing.js';
import type { McpRequest } from './mcp-request.interface.js';

/** What a request relayed to a mirrored task's upstream carries: the caller, and its trace fields. */
export const relayOriginOf = (tracing: McpTracing, req: McpRequest): RelayOrigin => ({
  principal: req.principal,
  meta: traceCarrier(tracing, req.params, req.traceContext),
});
