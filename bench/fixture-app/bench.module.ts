import { Module } from '@nestjs/common';
import { BenchFixtures } from './bench-fixtures.service.js';
import { BenchRelay } from './bench-relay.service.js';
import { BenchResumable } from './bench-resumable.service.js';

/** Benchmark-only tools (`npm run bench`), added to the demo by `main.ts` here. */
@Module({ providers: [BenchFixtures, BenchRelay, BenchResumable] })
export class BenchModule {}
