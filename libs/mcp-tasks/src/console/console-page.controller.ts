import { Controller, Get, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConsoleAssets } from './console-assets.js';
import { MCP_CONSOLE_OPTIONS, type ResolvedConsoleOptions } from './console-options.js';

/**
 * The page holds no data (that is behind the access rule at `<path>/api`): it loads it with the caller's
 * credentials.
 */
const HEADERS = {
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
};

/**
 * The console page and its files at `options.path`. The path comes from (possibly async) options,
 * so it is set on the class when Nest instantiates it, before routes are registered.
 */
@Controller()
export class ConsolePageController {
  constructor(
    @Inject(MCP_CONSOLE_OPTIONS) options: ResolvedConsoleOptions,
    private readonly assets: ConsoleAssets,
  ) {
    Reflect.defineMetadata(PATH_METADATA, options.path, new.target);
  }

  @Get()
  page(@Req() req: IncomingMessage & { originalUrl?: string }, @Res() res: ServerResponse): void {
    // The page loads its files and data by relative URLs, so it must be served from `<path>/`
    // (which also keeps it working under a global prefix or behind a proxy).
    const url = new URL(req.originalUrl ?? req.url ?? '/', 'http://x');
    if (!url.pathname.endsWith('/')) {
      res.writeHead(308, { location: `${url.pathname}/${url.search}` }).end();
      return;
    }
    this.send(res, 'index.html');
  }

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() res: ServerResponse): void {
    this.send(res, file === 'index.html' ? '' : file);
  }

  private send(res: ServerResponse, name: string): void {
    const file = this.assets.get(name);
    if (!file) throw new NotFoundException();
    res.writeHead(200, { ...HEADERS, 'content-type': file.type, 'content-length': file.body.length }).end(file.body);
  }
}
