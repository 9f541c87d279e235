import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { MCP_CONSOLE_OPTIONS, type ResolvedConsoleOptions } from './console-options.js';
import { ConsolePageSender } from './console-page.sender.js';

/**
 * The console page and its files at `options.path`. The path comes from (possibly async) options,
 * so it is set on the class when Nest instantiates it, before routes are registered.
 */
@Controller()
export class ConsolePageController {
  constructor(
    @Inject(MCP_CONSOLE_OPTIONS) options: ResolvedConsoleOptions,
    private readonly sender: ConsolePageSender,
  ) {
    // `@Controller()` again, now with the path: Nest's public way to set it.
    Controller(options.path)(new.target);
  }

  /** `<path>`, and on Express `<path>/` too (Fastify's is `ConsoleSlashRoute`). */
  @Get()
  page(@Req() req: IncomingMessage & { originalUrl?: string }, @Res() res: unknown): void {
    // The page loads its files and data by relative URLs, so it must be served from `<path>/`
    // (which also keeps it working under a global prefix or behind a proxy).
    const url = new URL(req.originalUrl ?? req.url ?? '/', 'http://x');
    if (!url.pathname.endsWith('/')) return this.sender.redirect(res, `${url.pathname}/${url.search}`);
    this.sender.file(res, 'index.html');
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: unknown): void {
    this.sender.file(res, file === 'index.html' ? '' : file);
  }
}
