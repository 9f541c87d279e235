import { Injectable } from '@nestjs/common';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { setTimeout as sleep } from 'node:timers/promises';
import { DurableLedger, INSTANCE } from './durable-ledger.js';
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
      'each attempt, answer and completion in its ledger tables.',
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
      await sleep(args.stepMs, undefined, { signal: ctx.signal }).catch(() => undefined);
      if (ctx.cancelled) return `stopped at ${done}`;
      if (args.checkpoint) await ctx.checkpoint(done + 1);
      await ctx.progress(done + 1, args.steps, `step ${done + 1} on ${INSTANCE}, attempt ${ctx.attempt}`);
    }
    await this.ledger.record('completions', { ...row, detail: go });
    return JSON.stringify({ attempt: ctx.attempt, instance: INSTANCE, from, go });
  }
}
