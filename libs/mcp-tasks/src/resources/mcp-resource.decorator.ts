import { SetMetadata } from '@nestjs/common';
import type { ResourceCacheHint } from './resource-cache.interface.js';
import { MCP_RESOURCE_METADATA } from './resource.constants.js';

/**
 * Options of `@McpResource`.
 * @publicApi
 */
export interface McpResourceOptions {
  /** The resource's URI (unique in the server: a duplicate fails startup). */
  uri: string;
  /** Its name in `resources/list`. */
  name: string;
  /** Title shown by clients. */
  title?: string;
  description?: string;
  /**
   * The contents' MIME type, listed and put on each content the method's value makes.
   * @default text/plain for a string, application/json for a JSON value, application/octet-stream for a Buffer
   */
  mimeType?: string;
  /** Annotations (`audience`, `priority`, `lastModified`), passed through to the list. */
  annotations?: Record<string, unknown>;
  /**
   * 2026-07-28 caching hint of its `resources/read` results.
   * @default { ttlMs: 0 } (not kept)
   */
  cache?: ResourceCacheHint;
}

/**
 * Exposes a provider (or controller) method as an MCP resource read with `resources/read`. The method is called as
 * `({}, ctx)` (or with `@ToolArgs()` / `@ToolCtx()` … parameters) through Nest's pipeline — its guards (after the
 * scopes guard: `@RequiredScopes` is checked before anything is read), interceptors, pipes and filters — and
 * returns the contents: a string (text), a `Buffer` or `Uint8Array` (a base64 blob), a `{ contents: [...] }`
 * result or an array of contents as the spec has them, or any other JSON value (sent as `application/json` text).
 * `ctx` may ask for input (`ctx.elicit` …) and report progress, as a synchronous tool's does.
 * @publicApi
 */
export const McpResource = (options: McpResourceOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_METADATA, options);
