import { Module } from '@nestjs/common';
import { ReliabilityTools } from './reliability-tools.service.js';

/** Tools for `npm run test:reliability` only. The demo imports this module only when MCP_RELIABILITY=1. */
@Module({ providers: [ReliabilityTools] })
export class ReliabilityModule {}
