import { Injectable } from '@nestjs/common';
import type { HttpContext } from '../common/http-context.interface.js';
import type { McpCall } from '../common/mcp-call.interface.js';
import { MCP_CONTEXT_TYPE } from '../mcp-tasks.constants.js';
import { NestPipelines, type Pipeline } from './nest-pipelines.js';

/** What `getClass()` names for MCP requests that reach no tool (`getHandler().name` is `handle`). */
export class McpEndpoint {
  /** Runs the rest of the request: the continuation `AppEnhancers.run` passes after the context's arguments. */
  handle(this: void, _req: unknown, _res: unknown, _call: McpCall, next: () => Promise<unknown>): Promise<unknown> {
    return next();
  }
}

/**
 * The app's global guards and interceptors (`APP_GUARD`, `useGlobalGuards`, `APP_INTERCEPTOR`, …) for an MCP request
 * that does not call a tool (a tool call meets them in its own pipeline): run once per request, in an `mcp` context
 * whose arguments are `[req, res, McpCall]`, around the rest of the request. What a guard throws (or `false`, a 403)
 * reaches the caller, who answers it as a JSON-RPC error.
 */
@Injectable()
export class AppEnhancers {
  private readonly endpoint = new McpEndpoint();
  /** `null`: the app has no global guards or interceptors, so nothing runs around the request. */
  private pipeline?: Pipeline | null;

  constructor(private readonly nest: NestPipelines) {}

  run<T>(http: HttpContext, call: McpCall, next: () => Promise<T>): Promise<T> {
    // Built on first use, once the app has registered its global enhancers.
    if (this.pipeline === undefined) {
      const handle = McpEndpoint.prototype.handle;
      this.pipeline = this.nest.hasAppWide() ? this.nest.appWide(this.endpoint, handle, MCP_CONTEXT_TYPE) : null;
    }
    // Without one, `http` is not read: on the fast path its objects stay Node's (see `HttpContext.node`).
    return this.pipeline ? (this.pipeline(http.req, http.res, call, next) as Promise<T>) : next();
  }
}
