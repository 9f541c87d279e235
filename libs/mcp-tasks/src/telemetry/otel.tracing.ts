import type * as otel from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import type { TraceContext } from '../common/trace-context.js';
import type { McpSpan, McpTracing, SpanSpec } from './tracing.js';

const CARRIED = ['traceparent', 'tracestate', 'baggage'] as const;

/** Tracing through `@opentelemetry/api`; with no SDK registered every span is the API's own no-op. */
export class OtelTracing implements McpTracing {
  private readonly tracer: otel.Tracer;

  constructor(private readonly api: typeof otel) {
    this.tracer = api.trace.getTracer('mcp-tasks');
  }

  callerContext(meta: Record<string, unknown> | undefined, headers: IncomingHttpHeaders): TraceContext {
    const carrier: Record<string, string> = {};
    for (const key of CARRIED) {
      const v = meta?.[key] ?? headers[key];
      if (typeof v === 'string') carrier[key] = v;
    }
    const active = this.api.context.active();
    return carrier.traceparent ? this.api.propagation.extract(active, carrier) : active;
  }

  active(): TraceContext {
    return this.api.context.active();
  }

  carrier(context: TraceContext): Record<string, string> {
    const carrier: Record<string, string> = {};
    this.api.propagation.inject((context as otel.Context | undefined) ?? this.api.context.active(), carrier);
    return carrier;
  }

  async inSpan<T>(
    spec: SpanSpec,
    parent: TraceContext,
    fn: (span: McpSpan, context: TraceContext) => Promise<T>,
  ): Promise<T> {
    const base = (parent as otel.Context | undefined) ?? this.api.context.active();
    const kind = spec.kind === 'server' ? this.api.SpanKind.SERVER : this.api.SpanKind.INTERNAL;
    const otelSpan = this.tracer.startSpan(spec.name, { kind, attributes: spec.attributes }, base);
    const span = this.wrap(otelSpan);
    const context = this.api.trace.setSpan(base, otelSpan);
    try {
      return await this.api.context.with(context, () => fn(span, context));
    } catch (err) {
      if (spec.isFailure?.(err) ?? true) span.fail(err);
      throw err;
    } finally {
      span.end();
    }
  }

  private wrap(span: otel.Span): McpSpan {
    const api = this.api;
    return {
      setAttribute: (key, value) => void span.setAttribute(key, value),
      fail(err: unknown): void {
        const e = err instanceof Error ? err : new Error(String(err));
        span.recordException(e);
        span.setAttribute('error.type', e.name || 'Error');
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: e.name });
      },
      end: () => span.end(),
    };
  }
}
