import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode } from '@opentelemetry/core';
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** Takes every span and drops it: the SDK's own cost (recording, processing) without any export. */
const noopExporter: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: () => Promise.resolve(),
};

/** Lets each span go as it ends: recorded, never held (what a batch processor's buffer costs, by difference). */
const dropAtEnd: SpanProcessor = {
  onStart: () => undefined,
  onEnd: () => undefined,
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

/** The tracer provider of each `MCP_BENCH_OTEL` value but `context` (see `registerOtelSdk`). */
export function tracerProvider(mode: string): BasicTracerProvider {
  if (mode === 'sdk-off') return new BasicTracerProvider({ sampler: new AlwaysOffSampler() });
  const processor =
    mode === 'sdk-simple'
      ? new SimpleSpanProcessor(noopExporter)
      : mode === 'sdk-drop'
        ? dropAtEnd
        : new BatchSpanProcessor(noopExporter);
  return new BasicTracerProvider({ spanProcessors: [processor] });
}

/**
 * `MCP_BENCH_OTEL`, registered before the app starts. `sdk` (the bench's figure; `sdk-batch` the same): a context
 * manager and a tracer provider, every span recorded and handed to a BatchSpanProcessor (512 spans a batch, or 5 s)
 * whose exporter does nothing, as an app exporting traces has. `sdk-simple`: the same through a SimpleSpanProcessor
 * (each span exported as it ends, inside a `context.with`; what the bench measured before 4 December). `sdk-drop`:
 * spans recorded and let go at their end (no processor holds them). `sdk-off`: a sampler that records nothing — the
 * library's whole recording path, the SDK's spans non-recording. `context`: the context manager alone, no
 * spans — what its AsyncLocalStorage hooks cost every promise once a first `context.with` enabled them.
 */
export function registerOtelSdk(mode: string): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (mode === 'context') return;
  trace.setGlobalTracerProvider(tracerProvider(mode));
}
