import { Module } from '@nestjs/common';
import { ApprovalService } from './approval.service.js';
import { CountdownService } from './countdown.service.js';
import { ExportService } from './export.service.js';
import { ReleaseService } from './release.service.js';

@Module({ providers: [ExportService, ApprovalService, ReleaseService, CountdownService] })
export class DemoModule {}
