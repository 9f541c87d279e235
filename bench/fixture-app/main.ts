import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { AppModule } from '../../src/app.module.js';
import { bootstrap } from '../../src/bootstrap.js';
import { BenchModule } from './bench.module.js';
import { registerOtelSdk } from './otel-sdk.js';
import { registerOtelAb } from './otel-ab.js';

/**
 * The demo plus the benchmark's fixture tools: what `npm run bench` runs as the module's contestants. With an
 * event emitter (and no listeners), so "telemetry on" is the library's default with everything it can use
 * present; `MCP_BENCH_OTEL=sdk` also registers an OpenTelemetry SDK whose exporter drops every span (otel-sdk.ts);
 * `MCP_BENCH_AB` several SDK set-ups taking turns in this one process (otel-ab.ts).
 */
@Module({ imports: [EventEmitterModule.forRoot(), AppModule, BenchModule] })
class BenchAppModule {}

if (process.env.MCP_BENCH_AB) registerOtelAb(process.env.MCP_BENCH_AB);
else if (process.env.MCP_BENCH_OTEL) registerOtelSdk(process.env.MCP_BENCH_OTEL);
await bootstrap(BenchAppModule);
