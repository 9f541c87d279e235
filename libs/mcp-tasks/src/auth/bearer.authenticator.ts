import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import passport from 'passport';
import { MCP_TASKS_OPTIONS, type ResolvedOptions } from '../options/resolved-options.js';
import { unauthorized } from './auth-challenge.js';
import { audiencesOf } from './claims-principal.js';
import { registerJwtStrategy } from './jwt-strategy.factory.js';
import type { McpAuthOptions } from './mcp-auth-options.interface.js';

export interface Authenticated {
  claims: Record<string, unknown>;
  /** The audience that matched this resource (part of the owner key). */
  resource: string;
}

/** Verified tokens remembered at most; the oldest is dropped first. */
const CACHE_MAX = 10_000;

/**
 * Runs the configured passport strategy on a request; a refusal is a 401 `RpcError` with the
 * challenge. Successes are remembered per token (see `auth.cacheTtl`): clients poll `tasks/get`
 * with the same token, and verifying it every time would dominate the request's cost.
 */
@Injectable()
export class BearerAuthenticator implements OnModuleInit {
  private strategy = '';
  private ttl = 0;
  private readonly verified = new Map<string, { value: Authenticated; until: number }>();

  constructor(@Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions) {}

  onModuleInit(): void {
    const auth = this.options.auth;
    if (!auth) return;
    this.strategy = auth.strategy ?? `mcp-tasks-jwt:${this.options.server.name}`;
    this.ttl = auth.cacheTtl ?? (auth.strategy ? 0 : 60_000);
    if (!auth.strategy) registerJwtStrategy(this.strategy, auth);
  }

  async authenticate(req: IncomingMessage): Promise<Authenticated> {
    const auth = this.options.auth!;
    const header = req.headers.authorization;
    if (!header) throw unauthorized(auth.resource, 'missing');
    const now = Date.now();
    const hit = this.verified.get(header);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.verified.delete(header);
    const value = await this.verify(req, auth);
    this.remember(header, value, now);
    return value;
  }

  private remember(header: string, value: Authenticated, now: number): void {
    if (this.ttl <= 0) return;
    const exp = typeof value.claims.exp === 'number' ? value.claims.exp * 1000 : Infinity;
    const until = Math.min(now + this.ttl, exp);
    if (until <= now) return;
    if (this.verified.size >= CACHE_MAX) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(header, { value, until });
  }

  private async verify(req: IncomingMessage, auth: McpAuthOptions): Promise<Authenticated> {
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
