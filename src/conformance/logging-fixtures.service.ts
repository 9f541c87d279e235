import { Injectable } from '@nestjs/common';
import { IsString } from 'class-validator';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpHeader, McpTool, type ToolContext } from '@mcp-tasks/nestjs';

export class RegionDto {
  /** Mirrored into `Mcp-Param-Region`: the header the suite checks against the body. */
  @McpHeader('Region')
  @IsString()
  region!: string;
}

/** Fixtures of the logging scenarios (2025-era) and of SEP-2243's custom-header one (2026-07-28). */
@Injectable()
export class LoggingFixtures {
  @McpTool({ name: 'test_tool_with_logging', description: 'Logs three info messages, 50 ms apart.' })
  async withLogging(_a: object, ctx: ToolContext): Promise<string> {
    await ctx.log('info', 'Tool execution started');
    await sleep(50);
    await ctx.log('info', 'Tool processing data');
    await sleep(50);
    await ctx.log('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @McpTool({
    name: 'test_routing_header',
    description: 'Answers with the region it was routed on (Mcp-Param-Region).',
    input: RegionDto,
  })
  routingHeader(args: RegionDto): string {
    return `Routed to ${args.region}`;
  }
}
