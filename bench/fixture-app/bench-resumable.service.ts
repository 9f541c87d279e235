import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { BenchIdsDto } from './bench.dto.js';
import { BenchResumableDto } from './bench-resumable.dto.js';

/** One run of a task on this instance: its attempt, when it began and when its first progress was stored. */
interface RunSeen {
  attempt: number;
  started: number;
  progressed?: number;
}

const now = () => performance.timeOrigin + performance.now();

/**
 * The resume phase's tools (`bench/scenarios/resume.ts`): a resumable task that reports progress until it is
 * cancelled or handed over, and what each instance saw of its runs — so the bench reads, on the instance that took a
 * task over, when the new attempt's first progress was in the store (one machine, one clock).
 */
@Injectable()
export class BenchResumable {
  /** The latest run of each task here. */
  private readonly runs = new Map<string, RunSeen>();

  @McpTool({
    name: 'bench_resumable',
    description: 'A task that reports progress (naming its attempt) every stepMs until cancelled; resumable.',
    input: BenchResumableDto,
    task: 'required',
    resume: true,
    maxAttempts: 3,
  })
  async run(args: BenchResumableDto, ctx: ToolContext): Promise<string> {
    const seen: RunSeen = { attempt: ctx.attempt, started: now() };
    this.runs.set(ctx.taskId ?? '', seen);
    for (let step = 1; !ctx.cancelled; step++) {
      // Resolves once the store holds the message: from then on tasks/get on any instance returns it.
      await ctx.progress(step, undefined, `attempt ${ctx.attempt}`);
      seen.progressed ??= now();
      await sleep(args.stepMs ?? 100, undefined, { signal: ctx.signal }).catch(() => undefined);
    }
    return `stopped at attempt ${ctx.attempt}`;
  }

  @McpTool({
    name: 'bench_attempts',
    description: 'The latest run of each listed task on this instance (attempt, epoch ms started, first progress).',
    input: BenchIdsDto,
  })
  attempts(args: BenchIdsDto): string {
    return JSON.stringify(Object.fromEntries(args.ids.map((id) => [id, this.runs.get(id) ?? null])));
  }
}
