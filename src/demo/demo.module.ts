import { Module } from '@nestjs/common';
import { ApprovalService } from './approval.service.js';
import { ArchiveService } from './archive.service.js';
import { CountdownService } from './countdown.service.js';
import { ExportService } from './export.service.js';
import { ManifestService } from './manifest.service.js';
import { ReleaseService } from './release.service.js';
import { ReviewPromptService } from './review-prompt.service.js';
import { UsageService } from './usage.service.js';

@Module({
  providers: [
    ExportService,
    ApprovalService,
    ReleaseService,
    CountdownService,
    ArchiveService,
    UsageService,
    ManifestService,
    ReviewPromptService,
  ],
})
export class DemoModule {}
