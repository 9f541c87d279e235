import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import passport from 'passport';
import { MCP_TASKS_OPTIONS, type ResolvedOptions } from '../options/resolved-options.js';
import { unauthorized } from './auth-challenge.js';
import { audiencesOf } from './claims-principal.js';
import { registerJwtStrategy } from './jwt-strategy.factory.js';

export interface Authenticated {
  claims: Record<string, unknown>;
  /** The audience that matched this resource (part of the owner key). */
  resource: string;
}

/** Runs the configured passport strategy on a request; a refusal is a 401 `RpcError` with the challenge. */
@Injectable()
export class BearerAuthenticator implements OnModuleInit {
  private strategy = '';

  constructor(@Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions) {}

  onModuleInit(): void {
    const auth = this.options.auth;
    if (!auth) return;
    this.strategy = auth.strategy ?? `mcp-tasks-jwt:${this.options.server.name}`;
    if (!auth.strategy) registerJwtStrategy(this.strategy, auth);
  }

  async authenticate(req: IncomingMessage): Promise<Authenticated> {
    const auth = this.options.auth!;
    if (!req.headers.authorization) throw unauthorized(auth.resource, 'missing');
    const user = await new Promise<unknown>((resolve, reject) => {
      const res = {} as ServerResponse;
      passport.authenticate(this.strategy, { session: false }, (err: unknown, found: unknown, info: unknown) => {
        if (err) reject(err);
        else if (!found) reject(unauthorized(auth.resource, describe(info)));
        else resolve(found);
      })(req, res, (e?: unknown) => (e ? reject(e) : resolve(undefined)));
    });
    const claims = (user && typeof user === 'object' ? user : {}) as Record<string, unknown>;
    // RFC 8707: the token must be minted for this resource, whichever strategy verified it.
    const accepted = [auth.audience ?? auth.resource].flat();
    const resource = audiencesOf(claims).find((a) => accepted.includes(a));
    if (!resource) throw unauthorized(auth.resource, 'the token was not issued for this resource');
    if (typeof claims.sub !== 'string' || !claims.sub) throw unauthorized(auth.resource, 'the token names no subject');
    return { claims, resource };
  }
}

const describe = (info: unknown): string => {
  const message = info instanceof Error ? info.message : typeof info === 'string' ? info : '';
  return message && !/^No auth token$/i.test(message) ? message : 'the bearer token is invalid';
};
