import { Module } from '@nestjs/common';
import { ReliabilityTools } from './reliability-tools.service.js';

/** Tools for `npm run test:reliability` only, added to the demo by `main.ts` here. */
@Module({ providers: [ReliabilityTools] })
export class ReliabilityModule {}
