import type { McpSpan, McpTracing } from './tracing.js';
import type { TraceContext } from '../common/trace-context.js';

const NOOP_SPAN: McpSpan = { setAttribute: () => undefined, fail: () => undefined, end: () => undefined };

/** Telemetry off, or no `@opentelemetry/api` installed: spans cost nothing. */
export class NoopTracing implements McpTracing {
  callerContext(): TraceContext {
    return undefined;
  }

  active(): TraceContext {
    return undefined;
  }

  inSpan<T>(
    _name: string,
    _kind: string,
    _attributes: object,
    parent: TraceContext,
    fn: (span: McpSpan, context: TraceContext) => Promise<T>,
  ): Promise<T> {
    return fn(NOOP_SPAN, parent);
  }

  startSpan(
    _name: string,
    _kind: string,
    _attributes: object,
    parent: TraceContext,
  ): { span: McpSpan; context: TraceContext } {
    return { span: NOOP_SPAN, context: parent };
  }

  with<T>(_context: TraceContext, fn: () => T): T {
    return fn();
  }
}
