import { Module } from '@nestjs/common';
import { BenchFixtures } from './bench-fixtures.service.js';

/** Benchmark-only tools (`npm run bench`), added to the demo by `main.ts` here. */
@Module({ providers: [BenchFixtures] })
export class BenchModule {}
