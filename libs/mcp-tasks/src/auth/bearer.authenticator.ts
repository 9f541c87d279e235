import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { PassportStatic } from 'passport';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { cjsExports, loadPeer } from '../peers/optional-peer.js';
import { unauthorized } from './auth-challenge.error.js';
import type { Authenticated } from './authenticated.interface.js';
import { jwtVerifier } from './jwt-strategy.factory.js';
import { registeredStrategies } from './passport-strategies.adapter.js';
import { passportVerifier } from './passport.verifier.js';
import type { StrategyOutcome, TokenVerifier } from './token-verifier.interface.js';
import { acceptedOutcome } from './token-acceptance.js';
import { ResourceUrl } from './resource-url.js';

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
export class BearerAuthenticator implements OnModuleInit, OnApplicationBootstrap {
  private passport?: PassportStatic;
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
    if (auth.strategy) {
      this.passport = cjsExports<PassportStatic>(await loadPeer('passport', `auth.strategy ("${auth.strategy}")`));
      this.strategy = passportVerifier(this.passport, auth.strategy);
    } else {
      this.strategy = await jwtVerifier(auth);
    }
    this.ttl = auth.cacheTtl ?? (auth.strategy ? 0 : 60_000);
  }

  /**
   * A misspelt `auth.strategy` fails startup, naming the strategies there are (else every request would fail).
   * Checked once every provider exists and every module is initialised: strategies register as they are created.
   */
  onApplicationBootstrap(): void {
    const name = this.options.auth?.strategy;
    if (!name || !this.passport) return;
    const names = registeredStrategies(this.passport);
    if (!names) {
      new Logger('McpTasks').warn(`auth.strategy "${name}" not checked at startup: passport's strategies are unlisted`);
    } else if (!names.includes(name)) {
      throw new Error(
        `McpTasksModule: invalid options: auth.strategy "${name}" is not a registered passport strategy ` +
          `(registered: ${names.map((n) => `"${n}"`).join(', ') || 'none'}). A strategy registers when Nest creates ` +
          "its provider, under the name given to PassportStrategy(Strategy, 'name'), else its own ('jwt' for " +
          'passport-jwt).',
      );
    }
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
      const value = acceptedOutcome(outcome, auth, resource);
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

/**
 * 30 bits of a header's last 8 characters (a token's signature ends it), as a small integer: no string to cut
 * and hash per request. Two tokens sharing it only means the second is remembered on first sight.
 */
function tailPrint(header: string): number {
  let h = 0;
  for (let i = Math.max(0, header.length - 8); i < header.length; i++) h = (h * 31 + header.charCodeAt(i)) & 0x3fffffff;
  return h;
}
