import { Injectable } from '@nestjs/common';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { BenchIdsDto } from './bench.dto.js';

const now = () => performance.timeOrigin + performance.now();

/**
 * The buses phase's answer relay: `bench_ask` asks one question and records when the answer reached the tool on the
 * instance running it (answered through another instance, the answer comes over the bus), `bench_answered` reads
 * those times.
 */
@Injectable()
export class BenchRelay {
  private readonly answered = new Map<string, number>();

  @McpTool({
    name: 'bench_ask',
    description: 'A task that asks one question and records when it got the answer.',
    task: 'required',
  })
  async ask(_args: object, ctx: ToolContext): Promise<string> {
    const answer = await ctx.elicit('go', 'Go on?', { type: 'object', properties: { go: { type: 'boolean' } } });
    this.answered.set(ctx.taskId ?? '', now());
    return answer.action;
  }

  @McpTool({
    name: 'bench_answered',
    description: 'When each listed task got its answer (epoch ms, sub-ms precision).',
    input: BenchIdsDto,
  })
  answeredAt(args: BenchIdsDto): string {
    return JSON.stringify(Object.fromEntries(args.ids.map((id) => [id, this.answered.get(id) ?? null])));
  }
}
