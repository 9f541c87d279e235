import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, RequiredScopes, ToolError, type ToolContext } from '@mcp-tasks/nestjs';
import { ExportProjectDto } from './export.dto.js';

/** A long job: runs as a task when the client can follow one, reports progress, stops when cancelled. */
@Injectable()
export class ExportService {
  @McpTool({
    name: 'export_project',
    description: 'Exports every file of a project, reporting progress; cancellable.',
    input: ExportProjectDto,
    task: 'optional',
  })
  @RequiredScopes('export')
  async exportProject(args: ExportProjectDto, ctx: ToolContext): Promise<string> {
    const total = args.files ?? 5;
    let done = 0;
    for (; done < total && !ctx.cancelled; done++) {
      await sleep(args.delayMs ?? 200, undefined, { signal: ctx.signal }).catch(() => undefined);
      if (ctx.cancelled) break;
      await ctx.progress(done + 1, total, `exporting ${args.project}`);
    }
    if (done === 0 && total > 0) throw new ToolError(`Nothing of ${args.project} was exported`);
    return `Exported ${done} of ${total} files of ${args.project}.`;
  }
}
