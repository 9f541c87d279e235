import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { EventEmitterModule } from '@nestjs/event-emitter';
import { DurableLedger } from './durable-ledger.js';
import { DurableTools } from './durable-tools.service.js';
import { ProcessCensus } from './process-census.js';
import { ReliabilityTools } from './reliability-tools.service.js';
import { StopEventsRecorder } from './stop-events.recorder.js';

/**
 * Tools for `npm run test:reliability` only, added to the demo by `main.ts` here; with the event emitter, so the
 * library's `mcp.task.stop` events can be recorded.
 */
@Module({
  imports: [DiscoveryModule, EventEmitterModule.forRoot()],
  providers: [ReliabilityTools, ProcessCensus, StopEventsRecorder, DurableTools, DurableLedger],
})
export class ReliabilityModule {}
