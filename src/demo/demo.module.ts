import { Module } from '@nestjs/common';
import { ApprovalService } from './approval.service.js';
import { ExportService } from './export.service.js';
import { ReleaseService } from './release.service.js';

@Module({ providers: [ExportService, ApprovalService, ReleaseService] })
export class DemoModule {}
