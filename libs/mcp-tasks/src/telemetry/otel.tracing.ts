import type * as otel from '@opentelemetry/api';
import type { IncomingHttpHeaders } from 'node:http';
import type { TraceContext } from '../common/trace-context.js';
import { NOOP_SPAN } from './noop.tracing.js';
import { OtelSpan } from './otel.span.js';
import type { McpSpan, McpTracing, SpanSpec } from './tracing.js';

const CARRIED = ['traceparent', 'tracestate', 'baggage'] as const;

/** Tracing through `@opentelemetry/api`; with no SDK registered every span is the API's own no-op. */
export class OtelTracing implements McpTracing {
  private readonly tracer: otel.Tracer;
  /** What a proxy provider without an SDK's provider delegates to (the API's one no-op provider). */
  private readonly noDelegate: otel.TracerProvider;

  constructor(private readonly api: typeof otel) {
    this.tracer = api.trace.getTracer('mcp-tasks');
    this.noDelegate = new api.ProxyTracerProvider().getDelegate();
  }

  callerContext(meta: Record<string, unknown> | undefined, headers: IncomingHttpHeaders): TraceContext {
    const active = this.api.context.active();
    // Most calls carry no trace: no carrier is built for them.
    const traceparent = meta?.traceparent ?? headers.traceparent;
    if (typeof traceparent !== 'string' || !traceparent) return active;
    const carrier: Record<string, string> = {};
    for (const key of CARRIED) {
      const v = meta?.[key] ?? headers[key];
      if (typeof v === 'string') carrier[key] = v;
    }
    return this.api.propagation.extract(active, carrier);
  }

  active(): TraceContext {
    return this.api.context.active();
  }

  recording(): boolean {
    // The API's global provider is a proxy; it has a delegate once an SDK registered one. Without it every span
    // would be the API's non-recording one: nothing to make, end or look at. (Its delegate compared, not asked for
    // a tracer: that builds a key and looks it up in the SDK, on every call.)
    const provider = this.api.trace.getTracerProvider();
    return !(provider instanceof this.api.ProxyTracerProvider) || provider.getDelegate() !== this.noDelegate;
  }

  carrier(context: TraceContext): Record<string, string> {
    const carrier: Record<string, string> = {};
    this.api.propagation.inject((context as otel.Context | undefined) ?? this.api.context.active(), carrier);
    return carrier;
  }

  inSpan<T>(
    spec: SpanSpec,
    parent: TraceContext,
    fn: (span: McpSpan, context: TraceContext) => Promise<T>,
  ): Promise<T> {
    const base = (parent as otel.Context | undefined) ?? this.api.context.active();
    // Still in `base`: an app with only a context manager and a propagator sees the caller's context as before.
    if (!this.recording()) return this.api.context.with(base, fn, undefined, NOOP_SPAN, base);
    const kind = spec.kind === 'server' ? this.api.SpanKind.SERVER : this.api.SpanKind.INTERNAL;
    const span = new OtelSpan(this.api, this.tracer.startSpan(spec.name, { kind, attributes: spec.attributes }, base));
    const context = this.api.trace.setSpan(base, span.span);
    // Settled with `then`, not in an async function: each promise costs more once an SDK's context manager tracks
    // every one (AsyncLocalStorage's hooks, Node 20), and an async function with an `await` makes two more.
    let running: Promise<T>;
    try {
      running = this.api.context.with(context, fn, undefined, span, context);
    } catch (err) {
      running = Promise.reject(err as Error);
    }
    return running.then(
      (value) => {
        span.end();
        return value;
      },
      (err: unknown) => {
        if (spec.isFailure?.(err) ?? true) span.fail(err);
        span.end();
        throw err;
      },
    );
  }
}
