import type * as otel from '@opentelemetry/api';
import type { McpSpan } from './tracing.js';

/** An OpenTelemetry span as the library uses it (a class: one object per span, no closures made per span). */
export class OtelSpan implements McpSpan {
  constructor(
    private readonly api: typeof otel,
    readonly span: otel.Span,
  ) {}

  setAttribute(key: string, value: string | number | boolean): void {
    this.span.setAttribute(key, value);
  }

  fail(err: unknown): void {
    const e = err instanceof Error ? err : new Error(String(err));
    this.span.recordException(e);
    this.span.setAttribute('error.type', e.name || 'Error');
    this.span.setStatus({ code: this.api.SpanStatusCode.ERROR, message: e.name });
  }

  end(): void {
    this.span.end();
  }
}
