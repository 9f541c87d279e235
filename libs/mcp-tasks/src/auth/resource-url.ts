import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';

const first = (v: string | string[] | undefined): string | undefined =>
  (Array.isArray(v) ? v[0] : v)?.split(',')[0].trim() || undefined;

/** The host a request was sent to: `X-Forwarded-Host` when proxies are trusted, else `Host`. */
export const requestHost = (req: IncomingMessage, trustProxy: boolean): string | undefined =>
  (trustProxy ? first(req.headers['x-forwarded-host']) : undefined) ?? first(req.headers.host);

/** `scheme://host` a request was sent to (`X-Forwarded-Proto`/`-Host` when proxies are trusted). */
export function requestOrigin(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = trustProxy ? first(req.headers['x-forwarded-proto']) : undefined;
  const scheme = forwarded ?? ((req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http');
  return `${scheme}://${requestHost(req, trustProxy) ?? 'localhost'}`;
}

/**
 * The protected resource (RFC 8707/9728) a request is for: `auth.resource` when configured, otherwise the URL of the
 * endpoint on the origin the request was sent to (through a trusted proxy: the public one). Tokens must name it as
 * their audience; challenges point at its metadata.
 */
@Injectable()
export class ResourceUrl {
  /** The endpoint's path as served (global prefix, version): set once the routes exist. */
  servedPath: string;

  constructor(@Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions) {
    this.servedPath = options.path;
  }

  /** Whether the resource comes from each request (no `auth.resource`). */
  get derived(): boolean {
    return !this.options.auth?.resource;
  }

  of(req: IncomingMessage): string {
    return this.options.auth?.resource ?? `${requestOrigin(req, this.options.trustProxy)}${this.servedPath}`;
  }
}
