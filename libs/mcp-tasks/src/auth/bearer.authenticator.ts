import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { PassportStatic } from 'passport';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { McpAuthOptions } from '../options/mcp-auth-options.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';
import { unauthorized } from './auth-challenge.js';
import { acceptedAudience } from './claims-principal.js';
import { jwtVerifier } from './jwt-strategy.factory.js';
import type { StrategyOutcome, TokenVerifier } from './token-verifier.interface.js';
import { ResourceUrl } from './resource-url.js';

export interface Authenticated {
  claims: Record<string, unknown>;
  /** The audience that matched this resource (part of the owner key). */
  resource: string;
}

/** Verified tokens remembered at most (two generations of half as many). */
const CACHE_MAX = 10_000;

type Entry = { value: Authenticated; until: number };

/**
 * Runs the configured token check on a request (the module's own, or the app's passport strategy); a
 * refusal is a 401 `RpcError` with the challenge. Successes are remembered per token (see
 * `auth.cacheTtl`): clients poll `tasks/get` with the same token, and verifying it every time would
 * dominate the request's cost.
 */
@Injectable()
export class BearerAuthenticator implements OnModuleInit {
  private strategy: TokenVerifier = () => Promise.resolve({});
  private ttl = 0;
  // When the newer generation is full it becomes the older one, and the older one is dropped whole:
  // no per-insert eviction (deleting a Map's oldest key one at a time made each insert scan the
  // deleted slots before it).
  private recent = new Map<string, Entry>();
  private older = new Map<string, Entry>();
  // Tails of tokens verified once (see `tailPrint`). A token is remembered when it comes back, so a stream
  // of never-repeated tokens keeps no verified claims alive (the tail only decides whether to cache;
  // a cache hit needs the whole header).
  private seen = new Set<number>();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly resources: ResourceUrl,
  ) {}

  /** Loads what the configured strategy needs (optional peers): `passport` for an app's strategy, else passport-jwt. */
  async onModuleInit(): Promise<void> {
    const auth = this.options.auth;
    if (!auth) return;
    this.strategy = auth.strategy
      ? passportStrategy(
          cjsExports<PassportStatic>(await loadPeer('passport', `auth.strategy ("${auth.strategy}")`)),
          auth.strategy,
        )
      : await jwtVerifier(auth);
    this.ttl = auth.cacheTtl ?? (auth.strategy ? 0 : 60_000);
  }

  /** Who the token says (a refusal throws): at once from the cache or the built-in check, else a promise. */
  authenticate(req: IncomingMessage): Authenticated | Promise<Authenticated> {
    const auth = this.options.auth!;
    const resource = this.resources.of(req);
    const header = req.headers.authorization;
    if (!header) throw unauthorized(resource, 'missing');
    // A derived resource differs by the origin a request came to: remembered per resource.
    const key = this.resources.derived ? `${resource}\n${header}` : header;
    const now = Date.now();
    const hit = this.recent.get(key) ?? this.older.get(key);
    if (hit && hit.until > now) return hit.value;
    const settle = (outcome: StrategyOutcome): Authenticated => {
      const value = accepted(outcome, auth, resource);
      this.remember(key, value, now);
      return value;
    };
    // The built-in check answers synchronously: no promise (and no turn of the microtask queue) per request then.
    const outcome = this.strategy(req);
    return outcome instanceof Promise ? outcome.then(settle) : settle(outcome);
  }

  private remember(header: string, value: Authenticated, now: number): void {
    if (this.ttl <= 0) return;
    const exp = typeof value.claims.exp === 'number' ? value.claims.exp * 1000 : Infinity;
    const until = Math.min(now + this.ttl, exp);
    if (until <= now) return;
    const tail = tailPrint(header);
    if (!this.seen.has(tail)) {
      if (this.seen.size >= CACHE_MAX) this.seen = new Set();
      this.seen.add(tail);
      return;
    }
    if (this.recent.size >= CACHE_MAX / 2) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(header, { value, until });
  }
}

/** The strategy's user as who a request is, if its token was minted for this resource and names a subject. */
function accepted({ user, info }: StrategyOutcome, auth: McpAuthOptions, resource: string): Authenticated {
  if (!user) throw unauthorized(resource, describe(info));
  const claims = (typeof user === 'object' ? user : {}) as Record<string, unknown>;
  // RFC 8707: the token must be minted for this resource, whichever strategy verified it.
  const matched = acceptedAudience(claims.aud, auth.audience ?? resource);
  if (!matched) throw unauthorized(resource, 'the token was not issued for this resource');
  if (typeof claims.sub !== 'string' || !claims.sub) throw unauthorized(resource, 'the token names no subject');
  return { claims, resource: matched };
}

/**
 * 30 bits of a header's last 8 characters (a token's signature ends it), as a small integer: no string to cut
 * and hash per request. Two tokens sharing it only means the second is remembered on first sight.
 */
function tailPrint(header: string): number {
  let h = 0;
  for (let i = Math.max(0, header.length - 8); i < header.length; i++) h = (h * 31 + header.charCodeAt(i)) & 0x3fffffff;
  return h;
}

/** An app's strategy, registered with passport under `name`, through passport (it may read anything on the request). */
function passportStrategy(passport: PassportStatic, name: string): TokenVerifier {
  return (req) =>
    new Promise<StrategyOutcome>((resolve, reject) => {
      passport.authenticate(name, { session: false }, (err: unknown, user: unknown, info: unknown) =>
        err ? reject(err) : resolve({ user, info }),
      )(req, {} as ServerResponse, (e?: unknown) => (e ? reject(e) : resolve({})));
    });
}

const describe = (info: unknown): string => {
  const message = info instanceof Error ? info.message : typeof info === 'string' ? info : '';
  return message && !/^No auth token$/i.test(message) ? message : 'the bearer token is invalid';
};
