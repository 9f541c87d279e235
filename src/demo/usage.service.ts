import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';
import { UsageDto } from './usage.dto.js';

/**
 * A tenant's usage report: the routing-header tool. Its tenant id travels in `Mcp-Param-Tenant-Id` too (SEP-2243),
 * checked against the body; it logs what it reads to clients that asked for log messages.
 */
@Injectable()
export class UsageService {
  @McpTool({
    name: 'tenant_usage',
    description: "A tenant's usage for a month (routed on Tenant-Id).",
    input: UsageDto,
  })
  async usage(args: UsageDto, ctx: ToolContext): Promise<string> {
    const month = args.month ?? new Date().toISOString().slice(0, 7);
    await ctx.log('info', { tenant: args.tenantId, month }, 'usage');
    // Made-up but stable figures: the same tenant and month always give the same report.
    const seed = createHash('sha256').update(`${args.tenantId}/${month}`).digest();
    const calls = seed.readUInt16BE(0) * 10;
    const tasks = seed.readUInt16BE(2) % 500;
    return `Tenant ${args.tenantId}, ${month}: ${calls} tool calls, ${tasks} tasks.`;
  }
}
