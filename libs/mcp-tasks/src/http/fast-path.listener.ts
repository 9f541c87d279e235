import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HttpContext } from '../common/http-context.interface.js';
import { internalError } from '../protocol/internal.error.js';
import { MCP_METHODS } from '../dispatcher/methods.table.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { nodeCall } from './http-call.js';
import { McpExchangeHandler } from './mcp-exchange.handler.js';
import { McpRoutes } from './mcp-routes.js';
import { replyError } from './reply.js';
import { FAST_PATH_MAX_BODY, isJson } from './request-body.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * `fastPath: true`: the Node HTTP server hands `POST <path>` requests whose `Mcp-Method` header names a method
 * this library answers whole (`tools/call`, `tasks/*`: the method table's entries without `claims`) straight to the
 * endpoint, ahead of the platform's router and middleware and of Nest's route pipeline. Those layers cost several
 * times what a `tasks/get` itself does. Every other request reaches the app exactly as before.
 */
@Injectable()
export class McpFastPath implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpTasks');

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly routes: McpRoutes,
    private readonly exchange: McpExchangeHandler,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.options.fastPath) return;
    const server = this.adapterHost?.httpAdapter?.getHttpServer() as Server | undefined;
    if (typeof server?.listeners !== 'function') {
      this.logger.warn('fastPath: the app has no Node HTTP server; requests take the normal route');
      return;
    }
    const paths = new Set(this.routes.paths);
    const platform = platformObjects(this.adapterHost.httpAdapter);
    const rest = server.listeners('request') as Listener[];
    server.removeAllListeners('request');
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.takes(req, paths)) {
        const call = nodeCall(req, res, FAST_PATH_MAX_BODY, platform(req, res));
        this.exchange.handle(call).catch((err: unknown) => this.lastResort(err, res));
      } else for (const listener of rest) listener.call(server, req, res);
    });
  }

  /** The endpoint answers its own errors; this is for a failure while answering one (Nest's route catches it too). */
  private lastResort(err: unknown, res: ServerResponse): void {
    const answer = internalError('fastPath: request failed', err);
    if (res.headersSent) res.destroy();
    else replyError(res, null, answer);
  }

  private takes(req: IncomingMessage, paths: Set<string>): boolean {
    if (req.method !== 'POST') return false;
    const entry = MCP_METHODS.get(req.headers['mcp-method'] as string);
    // A method only some of whose requests are ours could be the SDK's: it takes the app's route, middleware and all.
    if (!entry || entry.claims) return false;
    const url = req.url ?? '';
    const q = url.indexOf('?');
    return paths.has(q < 0 ? url : url.slice(0, q)) && isJson(req);
  }
}

type ExpressApp = { request?: object; response?: object };

/**
 * What the app's enhancers get on the fast path. On Express, Node's objects become Express's, as Express's own first
 * middleware makes them (`req.ip`, `res.header()`, …: what guards written for controllers call); Fastify's request
 * and reply cannot be made outside its router, so there they stay Node's (with `body` and `ip`). Done when `req` or
 * `res` is first read, not before: changing a live object's prototype slows every later use of it in Node's HTTP
 * code, which doubled the CPU of a `tasks/get` (see bench/results/2026-11-30-profiles.md). The library reads `node`.
 */
function platformObjects(adapter: { getType(): string; getInstance(): unknown }) {
  const app = adapter.getInstance() as ExpressApp;
  const express = adapter.getType() === 'express' && app.request && app.response ? app : undefined;
  const adopt = (req: IncomingMessage, res: ServerResponse): void => {
    if (express) {
      Object.setPrototypeOf(req, express.request!);
      Object.setPrototypeOf(res, express.response!);
      Object.assign(req, { res });
      Object.assign(res, { req, locals: Object.create(null) as object });
    } else Object.assign(req, { ip: req.socket.remoteAddress });
  };
  return (req: IncomingMessage, res: ServerResponse): HttpContext => new LazyPlatform(adopt, req, res);
}

/** Node's objects, made the platform's when `req` or `res` is first read (a class: cheaper to make than getters). */
class LazyPlatform implements HttpContext {
  private adopted = false;
  readonly node: { req: IncomingMessage; res: ServerResponse };

  constructor(
    private readonly adopt: (req: IncomingMessage, res: ServerResponse) => void,
    req: IncomingMessage,
    res: ServerResponse,
  ) {
    this.node = { req, res };
  }

  get req(): IncomingMessage {
    this.platform();
    return this.node.req;
  }

  get res(): ServerResponse {
    this.platform();
    return this.node.res;
  }

  private platform(): void {
    if (!this.adopted) this.adopt(this.node.req, this.node.res);
    this.adopted = true;
  }
}
