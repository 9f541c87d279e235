import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { insufficientScope } from '../auth/auth-challenge.error.js';
import { McpExecutionContext } from '../context/mcp-execution-context.js';
import { requiredScopesOf } from '../decorators/required-scopes.decorator.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';

/**
 * Refuses a tool call whose token lacks a scope named by `@RequiredScopes` (method and class
 * combined): HTTP 403 `insufficient_scope`, before any argument is acted on or any task exists.
 * Runs first among a tool's guards. Subclass and override the hooks to change how scopes are found.
 * @publicApi
 */
@Injectable()
export class McpScopesGuard implements CanActivate {
  // Decorator metadata is fixed once classes are defined: read once per class and method, not per call.
  private readonly needed = new WeakMap<object, WeakMap<object, string[]>>();

  constructor(
    protected readonly reflector: Reflector,
    @Inject(MCP_TASKS_OPTIONS) protected readonly options: ResolvedOptions,
  ) {}

  canActivate(ec: ExecutionContext): boolean {
    // Without authentication there are no token scopes to check.
    if (!McpExecutionContext.isToolRun(ec) || !this.options.auth) return true;
    const needed = this.requiredScopes(ec);
    if (needed.length === 0) return true;
    const granted = this.grantedScopes(ec);
    if (needed.some((s) => !granted.includes(s))) throw this.onInsufficientScope([...needed], ec);
    return true;
  }

  /** Scopes the tool needs: `@RequiredScopes` on the method and on its class. */
  protected requiredScopes(ec: ExecutionContext): string[] {
    const cls = ec.getClass();
    const handler = ec.getHandler();
    let byHandler = this.needed.get(cls);
    if (!byHandler) this.needed.set(cls, (byHandler = new WeakMap()));
    let needed = byHandler.get(handler);
    if (!needed) {
      needed = requiredScopesOf(this.reflector, cls, handler);
      byHandler.set(handler, needed);
    }
    return needed;
  }

  /** Scopes the caller's token grants. */
  protected grantedScopes(ec: ExecutionContext): string[] {
    return McpExecutionContext.toolContext(ec).principal.scopes;
  }

  /** What to throw when scopes are missing; `needed` is the full list the tool requires. */
  protected onInsufficientScope(needed: string[], ec: ExecutionContext): Error {
    const resource = McpExecutionContext.principal(ec).resource ?? this.options.auth!.resource!;
    return insufficientScope(resource, needed);
  }
}
