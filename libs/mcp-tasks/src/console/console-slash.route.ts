import { HttpException, Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { servedPaths } from '../http/served-paths.js';
import { checkConsoleHost } from './console-host.check.js';
import { MCP_CONSOLE_OPTIONS, type ResolvedConsoleOptions } from './console-options.js';
import { ConsolePageSender } from './console-page.sender.js';
import { ConsoleTarget } from './console-target.js';

interface FastifyLike {
  route(options: Record<string, unknown>): unknown;
  hasRoute(options: { method: string; url: string }): boolean;
  initialConfig: { ignoreTrailingSlash?: boolean; routerOptions?: { ignoreTrailingSlash?: boolean } };
}

/**
 * The page at `<path>/` on Fastify. Nest drops the trailing slash of a controller route, and Fastify, unlike
 * Express, does not match `/x/` to a route at `/x`: this Fastify route serves it. Not a Nest route, so it runs
 * the console's Host/Origin check itself (the app's global guards do not run here; the page holds no data).
 */
@Injectable()
export class ConsoleSlashRoute implements OnModuleInit {
  constructor(
    @Inject(MCP_CONSOLE_OPTIONS) private readonly options: ResolvedConsoleOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ApplicationConfig,
    private readonly target: ConsoleTarget,
    private readonly sender: ConsolePageSender,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (adapter?.getType() !== 'fastify') return;
    const fastify = adapter.getInstance<FastifyLike>();
    const { routerOptions, ignoreTrailingSlash } = fastify.initialConfig;
    // With `ignoreTrailingSlash` Fastify routes `<path>/` to the controller's route already.
    if (routerOptions?.ignoreTrailingSlash ?? ignoreTrailingSlash) return;
    for (const path of servedPaths(this.config, this.options.path)) {
      const url = `${path}/`;
      // `/` is the controller's own route.
      if (path === '/' || fastify.hasRoute({ method: 'GET', url })) continue;
      fastify.route({
        method: 'GET',
        url,
        handler: (req: { raw: IncomingMessage }, reply: unknown) => this.serve(req.raw, reply),
      });
    }
  }

  private serve(req: IncomingMessage, reply: unknown): void {
    try {
      checkConsoleHost(req, this.target.registration.options);
      this.sender.file(reply, 'index.html');
    } catch (err) {
      if (!(err instanceof HttpException)) throw err;
      this.adapterHost.httpAdapter.reply(reply, err.getResponse(), err.getStatus());
    }
  }
}
