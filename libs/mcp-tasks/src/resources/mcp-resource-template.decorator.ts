import { SetMetadata } from '@nestjs/common';
import type { ResourceCacheHint } from './resource-cache.interface.js';
import { MCP_RESOURCE_TEMPLATE_METADATA } from './resource.constants.js';

/**
 * Options of `@McpResourceTemplate`.
 * @publicApi
 */
export interface McpResourceTemplateOptions {
  /**
   * An RFC 6570 URI template (levels 1 and 2: `{id}`, `{+path}`, `{#frag}`; and `{/seg}`, `{?q,lang}` in the order
   * written). A URI it matches is read by the method; `{var}` values arrive percent-decoded.
   */
  uriTemplate: string;
  /** Its name in `resources/templates/list` (unique among templates). */
  name: string;
  title?: string;
  description?: string;
  /** The MIME type of what it reads (see `@McpResource`). */
  mimeType?: string;
  annotations?: Record<string, unknown>;
  /**
   * class-validator DTO of the URI's variables (strings: use `@Type(() => Number)` or `@IsNumberString` for
   * numbers): a URI whose variables fail it is refused with `-32602`, naming each failing variable.
   * @default the variables as a plain object of strings
   */
  params?: new (...args: any[]) => object;
  /** 2026-07-28 caching hint of its `resources/read` results. */
  cache?: ResourceCacheHint;
}

/**
 * Exposes a provider (or controller) method as a family of MCP resources (`resources/templates/list`); a
 * `resources/read` of a URI its template matches calls it as `(params, ctx)` — the URI's variables, validated by
 * `params` — through Nest's pipeline, as `@McpResource` does. Static resources are matched before templates, and
 * templates in discovery order.
 * @publicApi
 */
export const McpResourceTemplate = (options: McpResourceTemplateOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options);
