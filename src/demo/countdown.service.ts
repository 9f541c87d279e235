import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { CountdownDto } from './countdown.dto.js';

/** How one countdown run ended, as `countdown_log` reports it. */
interface CountdownRun {
  label: string;
  taskId?: string;
  ended: string;
}

const KEPT_RUNS = 50;

/**
 * A task that counts down, and a log of how its runs ended: a cancel (from a client, the console, or a gateway in
 * front of this server) shows there as the run stopped by its `ctx.signal`.
 */
@Injectable()
export class CountdownService {
  private readonly runs: CountdownRun[] = [];

  @McpTool({
    name: 'countdown',
    description: 'Counts down `seconds`, one step a second; a task when the client supports tasks; cancellable.',
    input: CountdownDto,
    task: 'optional',
  })
  async countdown(args: CountdownDto, ctx: ToolContext): Promise<string> {
    const run: CountdownRun = { label: args.label ?? 'countdown', taskId: ctx.taskId, ended: 'running' };
    this.remember(run);
    for (let left = args.seconds; left > 0; left--) {
      await ctx.progress(args.seconds - left, args.seconds, `${left} s left`);
      await sleep(1000, undefined, { signal: ctx.signal }).catch(() => undefined);
      if (ctx.cancelled) {
        run.ended = `stopped by its signal (${String((ctx.signal.reason as Error)?.message ?? 'aborted')})`;
        return `Stopped with ${left} s left.`;
      }
    }
    run.ended = 'finished';
    return `Counted down ${args.seconds} s.`;
  }

  @McpTool({ name: 'countdown_log', description: 'How the latest countdown runs ended, newest first.' })
  log(): string {
    if (this.runs.length === 0) return 'No countdown has run yet.';
    return this.runs.map((r) => `${r.label} (task ${r.taskId ?? '-'}): ${r.ended}`).join('\n');
  }

  private remember(run: CountdownRun): void {
    this.runs.unshift(run);
    this.runs.splice(KEPT_RUNS);
  }
}
