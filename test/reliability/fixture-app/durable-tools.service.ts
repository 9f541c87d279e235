import { Injectable } from '@nestjs/common';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DurableLedger, INSTANCE, type LedgerRow } from './durable-ledger.js';
import { RelDurableDto } from './durable.dto.js';

const GO = { type: 'object', properties: { go: { type: 'string' } }, required: ['go'] };

/** The crash-and-deploy phases' tool: a resumable task that writes what it did to its own ledger tables. */
@Injectable()
export class DurableTools {
  constructor(private readonly ledger: DurableLedger) {}

  @McpTool({
    name: 'rel_durable',
    description:
      'Runs `steps` steps of `stepMs`, resuming after a crash (3 attempts); asks `go` first when told; records ' +
      'each attempt, answer, completion and early stop in its ledger tables.',
    input: RelDurableDto,
    task: 'required',
    resume: true,
    maxAttempts: 3,
  })
  async durable(args: RelDurableDto, ctx: ToolContext): Promise<string> {
    const row = { taskId: ctx.taskId ?? '', attempt: ctx.attempt, label: args.label };
    const from = args.checkpoint ? ((ctx.checkpointed as number | undefined) ?? 0) : 0;
    await this.ledger.record('attempts', { ...row, detail: `from ${from}` });
    let go = '';
    if (args.ask) {
      const answer = await ctx.elicit('go', 'Go?', GO);
      go = String(answer.content?.go);
      await this.ledger.record('answers', { ...row, detail: go });
    }
    for (let done = from; done < args.steps; done++) {
      const signal = args.ignoreSignal ? undefined : ctx.signal;
      await sleep(args.stepMs, undefined, { signal }).catch(() => undefined);
      if (ctx.cancelled && !args.ignoreSignal) {
        await this.note(row, `stopped at ${done}: ${reasonOf(ctx.signal)}`);
        return `stopped at ${done}`;
      }
      if (args.checkpoint) await this.checkpoint(ctx, row, done + 1);
      await ctx.progress(done + 1, args.steps, `step ${done + 1} on ${INSTANCE}, attempt ${ctx.attempt}`);
    }
    await this.ledger.record('completions', { ...row, detail: go });
    return JSON.stringify({ attempt: ctx.attempt, instance: INSTANCE, from, go });
  }

  /** A checkpoint the library refuses (another attempt holds the task) is recorded, then thrown on as before. */
  private async checkpoint(ctx: ToolContext, row: LedgerRow, value: number): Promise<void> {
    try {
      await ctx.checkpoint(value);
    } catch (err) {
      await this.note(row, `checkpoint ${value} refused: ${(err as Error).message}`);
      throw err;
    }
  }

  /** Best effort: a stop during shutdown may find the database closing, and must still stop as before. */
  private note(row: LedgerRow, detail: string): Promise<void> {
    return this.ledger.record('stops', { ...row, detail }).catch(() => undefined);
  }
}

const reasonOf = (signal: AbortSignal): string =>
  String((signal.reason as Error | undefined)?.message ?? signal.reason);
