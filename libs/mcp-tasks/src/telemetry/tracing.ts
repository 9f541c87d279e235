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

/** What `inSpan` opens. */
export interface SpanSpec {
  name: string;
  kind: 'server' | 'internal';
  attributes: SpanAttributes;
  /** Whether a throw marks the span failed. Default: every throw does. */
  isFailure?: (err: unknown) => boolean;
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
   * The propagation fields (`traceparent`, `tracestate`, …) of `context`, for a request this server makes on its
   * behalf (an upstream call): the server called continues the trace. Empty without a propagator.
   */
  abstract carrier(context: TraceContext): Record<string, string>;

  /**
   * Runs `fn` in a new child span of `parent`, active while it runs (`context` is the parent plus the span); a
   * throw marks the span failed (see `isFailure`); the span ends when `fn` settles.
   */
  abstract inSpan<T>(
    spec: SpanSpec,
    parent: TraceContext,
    fn: (span: McpSpan, context: TraceContext) => Promise<T>,
  ): Promise<T>;
}
