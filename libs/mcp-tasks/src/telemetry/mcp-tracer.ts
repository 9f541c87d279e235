import { context, propagation, trace, type Context, type Span, SpanStatusCode } from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';

/** The library's tracer; with no OpenTelemetry SDK registered every call on it is a no-op. */
export const tracer = trace.getTracer('mcp-tasks');

/**
 * The caller's trace context: `_meta.traceparent`/`tracestate` (MCP carries it in the request), else
 * the HTTP headers, else the active context.
 */
export function callerContext(meta: Record<string, unknown> | undefined, headers: IncomingHttpHeaders): Context {
  const carrier: Record<string, string> = {};
  for (const key of ['traceparent', 'tracestate', 'baggage']) {
    const v = meta?.[key] ?? headers[key];
    if (typeof v === 'string') carrier[key] = v;
  }
  return carrier.traceparent ? propagation.extract(context.active(), carrier) : context.active();
}

/** Marks a span failed with the exception recorded (type only in the status; the span stays server-side). */
export function failSpan(span: Span, err: unknown): void {
  const e = err instanceof Error ? err : new Error(String(err));
  span.recordException(e);
  span.setAttribute('error.type', e.name || 'Error');
  span.setStatus({ code: SpanStatusCode.ERROR, message: e.name });
}
