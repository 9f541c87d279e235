import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { internalError } from '../common/internal-error.js';
import { DISPATCHED_METHODS, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { McpExchangeHandler } from './mcp-exchange.handler.js';
import { replyError } from './reply.js';
import { FAST_PATH_MAX_BODY, isJson } from './request-body.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `fastPath: true`: the Node HTTP server hands `POST <path>` requests whose `Mcp-Method` header names
 * a method this library answers (`tools/call`, `tasks/*`) straight to the endpoint, ahead of the
 * platform's router and middleware and of Nest's route pipeline. Those layers cost several times
 * what a `tasks/get` itself does. Every other request reaches the app exactly as before.
 */
@Injectable()
export class McpFastPath implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpTasks');

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ApplicationConfig,
    private readonly exchange: McpExchangeHandler,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.fastPath) return;
    const server = this.adapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    if (typeof server?.listeners !== 'function') {
      this.logger.warn('fastPath: the app has no Node HTTP server; requests take the normal route');
      return;
    }
    const path = joinPaths(this.config.getGlobalPrefix(), this.options.path);
    const rest = server.listeners('request') as Listener[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.takes(req, path))
        this.exchange.handle(req, res, FAST_PATH_MAX_BODY).catch((err: unknown) => this.lastResort(err, res));
      else for (const listener of rest) listener.call(server, req, res);
    });
  }

  /** The endpoint answers its own errors; this is for a failure while answering one (Nest's route catches it too). */
  private lastResort(err: unknown, res: ServerResponse): void {
    const answer = internalError('fastPath: request failed', err);
    if (res.headersSent) res.destroy();
    else replyError(res, null, answer);
  }

  private takes(req: IncomingMessage, path: string): boolean {
    if (req.method !== 'POST' || !DISPATCHED_METHODS.has(req.headers['mcp-method'] as string)) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    return (q < 0 ? url : url.slice(0, q)) === path && isJson(req);
  }
}

/** The route Nest gives the endpoint controller: global prefix, then the path. */
function joinPaths(prefix: string, path: string): string {
  const p = prefix.replace(/^\/+|\/+$/g, '');
  return p ? `/${p}${path === '/' ? '' : path}` : path;
}
