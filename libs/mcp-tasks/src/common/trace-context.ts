/**
 * The caller's trace context, carried from a `tools/call` to the run it starts. Opaque to the
 * library: an OpenTelemetry `Context` when `@opentelemetry/api` is installed, else nothing.
 */
export type TraceContext = unknown;
