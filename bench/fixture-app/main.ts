import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { AppModule } from '../../src/app.module.js';
import { bootstrap } from '../../src/bootstrap.js';
import { BenchModule } from './bench.module.js';

/** The demo plus the benchmark's fixture tools: what `npm run bench` runs as the module's contestants. */
@Module({ imports: [AppModule, BenchModule] })
class BenchAppModule {}

await bootstrap(BenchAppModule);
