import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { ExportResultCode } from '@opentelemetry/core';
import { BasicTracerProvider, SimpleSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';

/** Takes every span and drops it: the SDK's own cost (recording, processing) without any export. */
const noopExporter: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: () => Promise.resolve(),
};

/**
 * `MCP_BENCH_OTEL=sdk`: an OpenTelemetry SDK registered before the app starts (context manager and tracer
 * provider, every span recorded and handed to an exporter that does nothing), as an app with tracing has.
 */
export function registerOtelSdk(): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(noopExporter)] }));
}
