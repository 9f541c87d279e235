import type { TraceContext } from '../common/trace-context.js';
import type { McpSpan, McpTracing, SpanSpec } from './tracing.js';

const NOOP_SPAN: McpSpan = { setAttribute: () => undefined, fail: () => undefined, end: () => undefined };

/** Telemetry off, or no `@opentelemetry/api` installed: spans cost nothing. */
export class NoopTracing implements McpTracing {
  callerContext(): TraceContext {
    return undefined;
  }

  active(): TraceContext {
    return undefined;
  }

  carrier(): Record<string, string> {
    return {};
  }

  inSpan<T>(
    _spec: SpanSpec,
    parent: TraceContext,
    fn: (span: McpSpan, context: TraceContext) => Promise<T>,
  ): Promise<T> {
    return fn(NOOP_SPAN, parent);
  }
}
