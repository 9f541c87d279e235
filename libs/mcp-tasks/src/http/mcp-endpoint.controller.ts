import { All, Controller, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpEndpoint } from './mcp.endpoint.js';

/** The MCP endpoint: every method at `options.path` (each registration routes a subclass, see `mcp-routes.ts`). */
@Controller()
export class McpEndpointController {
  constructor(private readonly endpoint: McpEndpoint) {}

  @All()
  handle(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.endpoint.handle(req, res);
  }
}
