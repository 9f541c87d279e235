import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { MCP_TASKS_OPTIONS, RpcCode } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { requestOrigin } from './request-origin.js';

/**
 * The protected resource (RFC 8707/9728) a request is for: `auth.resource` when configured, otherwise the URL of the
 * endpoint on the origin the request was sent to (through a trusted proxy: the public one). Tokens must name it as
 * their audience; challenges point at its metadata. A resource is taken only from a host the app allows (see
 * `requestOrigin`): from any `Host`, a token the same issuer minted for another server would be accepted here by
 * sending that server's name.
 */
@Injectable()
export class ResourceUrl {
  private readonly logger = new Logger('McpTasks');
  /** The endpoint's path as served (global prefix, version): set once the routes exist. */
  servedPath: string;
  private reported = false;

  constructor(@Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions) {
    this.servedPath = options.path;
  }

  /** Whether the resource comes from each request (no `auth.resource`). */
  get derived(): boolean {
    return !this.options.auth?.resource;
  }

  /** The resource; a request whose host may not name one is refused (403). */
  of(req: IncomingMessage): string {
    const configured = this.options.auth?.resource;
    if (configured) return configured;
    const origin = requestOrigin(req, this.options.allowedHosts, this.options.trustProxy);
    if ('origin' in origin) return `${origin.origin}${this.servedPath}`;
    if (origin.unconfigured) this.report(req);
    throw new RpcError(
      RpcCode.InvalidRequest,
      `Forbidden: this server takes its resource URL from the request's host, and ${origin.refused}; ` +
        'it needs auth.resource, or allowedHosts listing the host names it is served under',
      undefined,
      403,
    );
  }

  /** A configuration that refuses every request beyond loopback: said once (a log line per request would flood). */
  private report(req: IncomingMessage): void {
    if (this.reported) return;
    this.reported = true;
    this.logger.error(
      `"${this.options.server.name}": a request to ${req.socket.localAddress ?? 'an unknown address'} (not loopback) ` +
        'was refused: auth has no resource, and without allowedHosts only loopback requests for localhost names may ' +
        'name one (from any Host, a token minted for another server could be replayed here). Set auth.resource to ' +
        "this server's resource URL, or allowedHosts to its host names. Further refusals are not logged.",
    );
  }
}
