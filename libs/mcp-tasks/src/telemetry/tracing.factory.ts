import type * as otel from '@opentelemetry/api';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { cjsExports, probePeer } from '../peers/optional-peer.js';
import { NoopTracing } from './noop.tracing.js';
import { OtelTracing } from './otel.tracing.js';
import type { McpTracing } from './tracing.js';

/** OpenTelemetry when telemetry is on and the app has `@opentelemetry/api`; otherwise no spans at all. */
export async function createTracing(options: ResolvedOptions): Promise<McpTracing> {
  const ns = options.telemetry ? await probePeer<typeof otel>('@opentelemetry/api') : undefined;
  const api = ns && cjsExports<typeof otel>(ns);
  return api?.trace ? new OtelTracing(api) : new NoopTracing();
}
