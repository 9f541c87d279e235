import { All, Controller, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpExchangeHandler } from './mcp-exchange.handler.js';

/** The MCP endpoint: every method at `options.path` (each registration routes a subclass, see `mcp-routes.ts`). */
@Controller()
export class McpEndpointController {
  constructor(private readonly exchange: McpExchangeHandler) {}

  @All()
  handle(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.exchange.handle(req, res);
  }
}
