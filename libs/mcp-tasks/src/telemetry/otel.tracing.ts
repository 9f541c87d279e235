import type * as otel from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import type { McpSpan, McpTracing, SpanAttributes } from './tracing.js';
import type { TraceContext } from '../common/trace-context.js';

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

  async inSpan<T>(
    name: string,
    kind: 'server' | 'internal',
    attributes: SpanAttributes,
    parent: TraceContext,
    fn: (span: McpSpan, context: TraceContext) => Promise<T>,
  ): Promise<T> {
    const { span, context } = this.startSpan(name, kind, attributes, parent);
    try {
      return await this.api.context.with(context as otel.Context, () => fn(span, context));
    } catch (err) {
      span.fail(err);
      throw err;
    } finally {
      span.end();
    }
  }

  startSpan(
    name: string,
    kind: 'server' | 'internal',
    attributes: SpanAttributes,
    parent: TraceContext,
  ): { span: McpSpan; context: TraceContext } {
    const base = (parent as otel.Context | undefined) ?? this.api.context.active();
    const kindOf = kind === 'server' ? this.api.SpanKind.SERVER : this.api.SpanKind.INTERNAL;
    const span = this.tracer.startSpan(name, { kind: kindOf, attributes }, base);
    return { span: this.wrap(span), context: this.api.trace.setSpan(base, span) };
  }

  with<T>(context: TraceContext, fn: () => T): T {
    return this.api.context.with(context as otel.Context, fn);
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
