import type { IncomingHttpHeaders } from 'node:http';
import type { TraceContext } from '../common/trace-context.js';

export type SpanAttributes = Record<string, string | number | boolean>;

/** A span as the library uses it. */
export interface McpSpan {
  setAttribute(key: string, value: string | number | boolean): void;
  /** Marks the span failed with the exception recorded (its type only in the status). */
  fail(err: unknown): void;
  end(): void;
}

/**
 * The library's tracing seam: OpenTelemetry when its API is installed and telemetry is on, a no-op
 * otherwise (see `tracing.factory.ts`). Spans follow the MCP semantic conventions.
 */
export abstract class McpTracing {
  /**
   * The caller's context: `_meta.traceparent`/`tracestate` (MCP carries it there), else the HTTP headers, else the
   * active one.
   */
  abstract callerContext(meta: Record<string, unknown> | undefined, headers: IncomingHttpHeaders): TraceContext;

  /** The active context (for calls that arrive without a carrier). */
  abstract active(): TraceContext;

  /**
   * Runs `fn` in a new span, active while it runs, with `context` being the parent plus the span;
   * a throw marks the span failed; the span ends when `fn` settles.
   */
  abstract inSpan<T>(
    name: string,
    kind: 'server' | 'internal',
    attributes: SpanAttributes,
    parent: TraceContext,
    fn: (span: McpSpan, context: TraceContext) => Promise<T>,
  ): Promise<T>;

  /** A span the caller ends itself, with the context that has it as the active span. */
  abstract startSpan(
    name: string,
    kind: 'server' | 'internal',
    attributes: SpanAttributes,
    parent: TraceContext,
  ): { span: McpSpan; context: TraceContext };

  /** Runs `fn` with `context` active. */
  abstract with<T>(context: TraceContext, fn: () => T): T;
}
