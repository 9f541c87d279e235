import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ApplicationConfig, HttpAdapterHost, type AbstractHttpAdapter } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { fastifyBodyError } from './body-parser-error.handler.js';
import { fastifyCall, nodeCall, type FastifyReplyLike, type FastifyRequestLike, type HttpCall } from './http-call.js';
import { McpExchangeHandler } from './mcp-exchange.handler.js';
import { ProtectedResource } from './protected-resource.js';
import { replyError } from './reply.js';
import { servedPaths } from './served-paths.js';

const METHODS = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT', 'OPTIONS'];

interface FastifyLike {
  route(options: Record<string, unknown>): unknown;
}

/**
 * Routes one registration on the app's HTTP platform: the endpoint at `options.path` (with the global prefix and URI
 * version Nest would give a controller there), and with `auth` the RFC 9728 metadata. They are platform routes, not
 * Nest controller routes: the app's middleware runs in front of them (they are added after it), and the app's global
 * guards and interceptors run once per MCP request inside the library, in an `mcp` context (see
 * docs/existing-app.md, "What runs where"), whatever the route. Added on module init: after Nest's routes, before
 * its not-found handler.
 */
@Injectable()
export class McpRoutes implements OnModuleInit {
  private readonly logger = new Logger('McpTasks');
  /** Where the endpoint is served (the fast path takes these). */
  paths: string[] = [];

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly config: ApplicationConfig,
    private readonly exchange: McpExchangeHandler,
    private readonly resource: ProtectedResource,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost?.httpAdapter;
    if (!adapter) return; // an application context without HTTP
    const claimed = claimsOf(adapter);
    this.paths = servedPaths(this.config, this.options.path);
    this.resource.servedAt(this.paths);
    for (const path of this.paths) {
      const other = claimed.get(path);
      if (other !== undefined) {
        throw new Error(
          `McpTasksModule: servers "${other}" and "${this.options.server.name}" are both at ${path}; ` +
            'give each registration its own path',
        );
      }
      claimed.set(path, this.options.server.name);
      this.endpoint(adapter, path);
    }
    // Registrations for one resource share its metadata: the first one serves it.
    for (const path of this.resource.metadataPaths().filter((p) => !claimed.has(p))) {
      claimed.set(path, this.options.server.name);
      adapter.get(path, (req: unknown, res: unknown) => {
        const { status, body } = this.resource.answer(
          adapter.getType() === 'fastify' ? rawOf(req) : (req as IncomingMessage),
        );
        adapter.reply(res, body, status);
      });
    }
    this.logger.log(`MCP server "${this.options.server.name}" on ${this.paths.join(', ')}`);
  }

  private endpoint(adapter: AbstractHttpAdapter, path: string): void {
    if (adapter.getType() === 'fastify') {
      (adapter.getInstance() as FastifyLike).route({
        method: METHODS,
        url: path,
        handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => this.serve(fastifyCall(request, reply)),
        // Fastify parses the body before the handler; what it refuses is answered as JSON-RPC, not Fastify's error.
        errorHandler: (err: Error, request: FastifyRequestLike, reply: FastifyReplyLike) => {
          const call = fastifyCall(request, reply);
          const answer = fastifyBodyError(err);
          return answer ? replyError(call.res, null, answer) : this.serve(call);
        },
      });
      return;
    }
    adapter.all(path, (req: IncomingMessage, res: ServerResponse) => this.serve(nodeCall(req, res)));
  }

  private serve(call: HttpCall): Promise<void> {
    return this.exchange.handle(call);
  }
}

const rawOf = (req: unknown): IncomingMessage => (req as FastifyRequestLike).raw;

/** The paths registrations took on one platform instance, and which server took each. */
const claims = new WeakMap<object, Map<string, string>>();
function claimsOf(adapter: AbstractHttpAdapter): Map<string, string> {
  const key = adapter.getInstance() as object;
  let map = claims.get(key);
  if (!map) claims.set(key, (map = new Map()));
  return map;
}
