import { Module } from '@nestjs/common';
import { ApprovalService } from './approval.service.js';
import { ExportService } from './export.service.js';

@Module({ providers: [ExportService, ApprovalService] })
export class DemoModule {}
