import {
  ForbiddenException,
  HttpException,
  Inject,
  Injectable,
  type CanActivate,
  type ExecutionContext,
  type OnModuleInit,
} from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { isObservable, lastValueFrom } from 'rxjs';
import { insufficientScope } from '../auth/auth-challenge.error.js';
import { RpcError } from '../protocol/rpc.error.js';
import { setActor, userName } from './console-actor.js';
import { MCP_CONSOLE_OPTIONS, type ResolvedConsoleOptions } from './console-options.js';
import { ConsoleTarget } from './console-target.js';

type Req = IncomingMessage & { user?: unknown };

/**
 * The console's access rule on every data route: a bearer token with the configured scopes (checked
 * by the McpTasksModule's own authenticator), then the app's guard; either refusing ends the request
 * with 401/403 before any data is read. Records who the caller is for the log.
 */
@Injectable()
export class ConsoleAccessGuard implements CanActivate, OnModuleInit {
  private appGuard?: CanActivate;

  constructor(
    @Inject(MCP_CONSOLE_OPTIONS) private readonly options: ResolvedConsoleOptions,
    private readonly target: ConsoleTarget,
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  async onModuleInit(): Promise<void> {
    const g = this.options.guard;
    this.appGuard = typeof g === 'function' ? await this.moduleRef.create(g) : g;
  }

  async canActivate(ec: ExecutionContext): Promise<boolean> {
    const req = ec.switchToHttp().getRequest<Req>();
    const res = ec.switchToHttp().getResponse<unknown>();
    const subject = this.options.scopes.length ? await this.checkToken(req, res) : undefined;
    if (this.appGuard) {
      const verdict = this.appGuard.canActivate(ec);
      const allowed = isObservable(verdict) ? await lastValueFrom(verdict) : await verdict;
      if (!allowed) throw new ForbiddenException('The console access guard refused this request');
    }
    setActor(req, this.options.actor?.(req) ?? subject ?? userName(req.user) ?? 'unknown');
    return true;
  }

  /** The token's subject when it is valid for the MCP resource and carries every console scope. */
  private async checkToken(req: Req, res: unknown): Promise<string> {
    const { options, bearer } = this.target.registration;
    try {
      const { identity, resource } = await bearer.authenticate(req);
      if (!this.options.scopes.every((s) => identity.scopes.includes(s)))
        throw insufficientScope(options.auth!.resource ?? resource, this.options.scopes);
      return identity.subject;
    } catch (err) {
      if (!(err instanceof RpcError)) throw err;
      // Express's response or Fastify's reply: the adapter sets the challenge on either.
      for (const [name, value] of Object.entries(err.headers ?? {}))
        this.adapterHost.httpAdapter.setHeader(res, name, value);
      throw new HttpException({ statusCode: err.httpStatus, message: err.message }, err.httpStatus);
    }
  }
}
