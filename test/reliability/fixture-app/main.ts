import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { AppModule } from '../../../src/app.module.js';
import { bootstrap } from '../../../src/bootstrap.js';
import { ReliabilityModule } from './reliability.module.js';

/** The demo plus the reliability suite's fixture tools: what `npm run test:reliability` runs. */
@Module({ imports: [AppModule, ReliabilityModule] })
class ReliabilityAppModule {}

await bootstrap(ReliabilityAppModule);
