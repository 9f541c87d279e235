import { All, Controller, Inject, Req, Res } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import { McpEndpoint } from './mcp.endpoint.js';

/**
 * The MCP endpoint at `options.path`. The path comes from (possibly async) options, so it is set on
 * the class when Nest instantiates it — which happens before Nest registers routes.
 */
@Controller()
export class McpEndpointController {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions,
    private readonly endpoint: McpEndpoint,
  ) {
    Reflect.defineMetadata(PATH_METADATA, options.path, new.target);
  }

  @All()
  handle(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    return this.endpoint.handle(req, res);
  }
}
