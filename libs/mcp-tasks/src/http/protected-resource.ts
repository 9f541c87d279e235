import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { ResourceUrl } from '../auth/resource-url.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { RpcError } from '../protocol/rpc.error.js';
import { checkHostAndOrigin } from './dns-rebinding.check.js';
import { metadataPaths, protectedResourceMetadata } from './protected-resource.metadata.js';

/**
 * The endpoint as an OAuth protected resource (RFC 9728): where its metadata is served — the well-known path
 * followed by the resource's path, the path every `resource_metadata` challenge names — and what it says.
 */
@Injectable()
export class ProtectedResource {
  private paths: string[] = [];

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly resources: ResourceUrl,
  ) {}

  /** Where the endpoint is served; a resource taken from requests uses the first of these paths. */
  servedAt(paths: string[]): void {
    this.paths = paths;
    this.resources.servedPath = paths[0] ?? this.options.path;
  }

  /** The metadata routes: none without `auth` (the app may serve its own). */
  metadataPaths(): string[] {
    const auth = this.options.auth;
    if (!auth) return [];
    const resources = auth.resource ? [auth.resource] : this.paths.map((p) => `http://resource${p}`);
    return [...new Set(resources.flatMap(metadataPaths))];
  }

  /**
   * The metadata document for a request, under the endpoint's host rules (DNS rebinding, and the host a resource may
   * be taken from); a refusal is the endpoint's JSON-RPC error, with no id.
   */
  answer(req: IncomingMessage): { status: number; body: Record<string, unknown> } {
    const { allowedHosts, allowedOrigins, trustProxy } = this.options;
    try {
      checkHostAndOrigin(req, allowedHosts, allowedOrigins, trustProxy);
      return { status: 200, body: protectedResourceMetadata(this.options.auth!, this.resources.of(req)) };
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      return { status: err.httpStatus, body: { jsonrpc: '2.0', id: null, error: err.toJSON() } };
    }
  }
}
