import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';

/** Takes every span and drops it: the SDK's own cost (recording, processing) without any export. */
const noopExporter: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: () => Promise.resolve(),
};

/**
 * `MCP_BENCH_OTEL`, registered before the app starts. `sdk`: a context manager and a tracer provider, every span
 * recorded and handed (SimpleSpanProcessor) to an exporter that does nothing, as an app with tracing has (the
 * bench's figure). `sdk-batch`: the same through a BatchSpanProcessor. `context`: the context manager alone, no
 * spans — what its AsyncLocalStorage hooks cost every promise once a first `context.with` enabled them.
 */
export function registerOtelSdk(mode: string): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  if (mode === 'context') return;
  const processor = mode === 'sdk-batch' ? new BatchSpanProcessor(noopExporter) : new SimpleSpanProcessor(noopExporter);
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [processor] }));
}
