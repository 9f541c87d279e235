import type { Provider } from '@nestjs/common';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { McpTelemetryInterceptor } from './mcp-telemetry.interceptor.js';
import { createTracing } from './tracing.factory.js';
import { McpTracing } from './tracing.js';

/** Spans (OpenTelemetry when installed, else no-ops) and the interceptor around every tool run. */
export const telemetryProviders: Provider[] = [
  { provide: McpTracing, useFactory: createTracing, inject: [MCP_TASKS_OPTIONS] },
  McpTelemetryInterceptor,
];
