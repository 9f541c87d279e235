import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { ArchiveProjectDto } from './archive.dto.js';

const FORMAT = {
  type: 'object',
  properties: { format: { type: 'string', enum: ['zip', 'tar'], description: 'The archive format' } },
  required: ['format'],
};

/**
 * A long job that survives its instance: with `MCP_STORE=sqlite` or `postgres`, a run cut off by a crash or a
 * deploy runs again (on another instance, or on this one after a restart) from its last checkpoint, and the format
 * asked before is not asked again. On the default memory store it runs, but nothing can resume it.
 */
@Injectable()
export class ArchiveService {
  @McpTool({
    name: 'archive_project',
    description:
      'Archives a project file by file, asking the format unless given; reports progress; cancellable. If the ' +
      'server instance running it crashes or shuts down, another instance resumes it after a crash from its last ' +
      'checkpoint (3 attempts at most; needs a durable store).',
    input: ArchiveProjectDto,
    task: 'optional',
    resume: true,
    maxAttempts: 3,
  })
  async archive(args: ArchiveProjectDto, ctx: ToolContext): Promise<string> {
    const total = args.files ?? 20;
    let format: string | undefined = args.format;
    if (!format) {
      // An answer given to an earlier attempt comes back at once: the question is not asked twice.
      const answer = await ctx.elicit('format', `Archive ${args.project} as?`, FORMAT);
      if (answer.action !== 'accept') return `The archive of ${args.project} was not started.`;
      format = String(answer.content?.format);
    }
    let done = (ctx.checkpointed as number | undefined) ?? 0; // files an earlier attempt archived
    for (; done < total; done++) {
      await sleep(args.delayMs ?? 500, undefined, { signal: ctx.signal }).catch(() => undefined);
      if (ctx.cancelled) return `Stopped after ${done} of ${total} files of ${args.project}.`;
      await ctx.checkpoint(done + 1);
      await ctx.progress(done + 1, total, `archiving ${args.project} (attempt ${ctx.attempt})`);
    }
    return `Archived ${total} files of ${args.project} as ${format} (attempt ${ctx.attempt}).`;
  }
}
