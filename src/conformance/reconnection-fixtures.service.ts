import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, type ToolContext } from '@mcp-tasks/nestjs';

/** The fixture of `server-sse-polling` (SEP-1699, 2025-11-25). */
@Injectable()
export class ReconnectionFixtures {
  @McpTool({
    name: 'test_reconnection',
    description: 'Closes its connection mid-call, then answers: the client resumes with Last-Event-ID to get it.',
  })
  async reconnection(_a: object, ctx: ToolContext): Promise<string> {
    const closed = ctx.closeStream();
    // Long enough for the answer to come after the client reconnected (it is kept for a late one too).
    await sleep(300);
    return closed ? 'Answered after the stream was closed' : 'Answered on the call (no stream to close here)';
  }
}
