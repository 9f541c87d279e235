import { Module } from '@nestjs/common';
import { BenchFixtures } from './bench-fixtures.service.js';

/** Benchmark-only tools (`npm run bench`). The demo imports this module only when MCP_BENCH=1. */
@Module({ providers: [BenchFixtures] })
export class BenchModule {}
