import type { TraceContext } from '../common/trace-context.js';
import type { McpTracing } from '../telemetry/tracing.js';

const FIELDS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * The trace fields for a request made upstream on a caller's behalf, in its `_meta`: this server's span when
 * OpenTelemetry propagates (the upstream's spans become its children), else the caller's own fields passed on, so
 * the trace still joins up without an OpenTelemetry SDK.
 */
export function traceCarrier(
  tracing: McpTracing,
  params: Record<string, unknown>,
  context: TraceContext,
): Record<string, string> {
  const meta = (params._meta ?? {}) as Record<string, unknown>;
  const passed = Object.fromEntries(FIELDS.flatMap((f) => (typeof meta[f] === 'string' ? [[f, meta[f]]] : [])));
  const ours = tracing.carrier(context);
  return ours.traceparent ? ours : passed;
}
