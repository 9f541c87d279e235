import type { IncomingMessage } from 'node:http';
import type { CanActivate, Type } from '@nestjs/common';
import type { ClassTransformOptions } from 'class-transformer';
import type { NatsBusConfig } from '../events/nats-bus.config.js';
import type { PostgresBusConfig } from '../events/postgres-bus.config.js';
import type { RedisBusConfig } from '../events/redis-bus.config.js';
import type { TaskEventBus } from '../events/task-event-bus.interface.js';
import type { RedisStoreConfig } from '../store/redis/redis-store.config.js';
import type { TypeOrmStoreConfig } from '../store/typeorm/typeorm-store.config.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { McpAuthOptions } from './mcp-auth-options.interface.js';
import type { McpUpstreamOptions } from './mcp-upstream-options.interface.js';

/**
 * Identity the server reports in `server/discover` and on every result.
 * @publicApi
 */
export interface McpServerIdentity {
  /** Server name; also part of every task owner key (tasks never cross servers). */
  name: string;
  /** Server version. */
  version: string;
  /**
   * Free-text instructions for clients, sent by `server/discover`.
   * @default none
   */
  instructions?: string;
}

/**
 * Options of `McpTasksModule.forRoot()` / `forRootAsync()`. Bad values fail startup with the option named.
 * @publicApi
 */
export interface McpTasksModuleOptions {
  /** Name, version and instructions of this MCP server. Required. */
  server: McpServerIdentity;
  /**
   * HTTP path of the endpoint (a trailing slash is dropped).
   * @default '/mcp'
   */
  path?: string;
  /**
   * Where tasks live: any `TaskStore`, or `{ type: 'typeorm' }` for the app's TypeORM connection (add
   * `mcpTasksEntities`/`mcpTasksMigrations` to it): SQLite for one durable node, PostgreSQL for several; or
   * `{ type: 'redis' }` for Redis (`ioredis`; durable only with the AOF on, see docs/stores.md).
   * @default new MemoryTaskStore() (one node, lost on restart)
   */
  store?: TaskStore | TypeOrmStoreConfig | RedisStoreConfig;
  /**
   * How instances tell each other about cancels, answers and status changes: any `TaskEventBus`, or
   * `{ type: 'postgres' }` for LISTEN/NOTIFY on a connection of its own, `{ type: 'redis' }` for Redis pub/sub
   * (`ioredis`), `{ type: 'nats' }` for core NATS (`nats`): the last two send a task's events only to the instances
   * that follow it.
   * @default a bus in this process (`LocalTaskEventBus`)
   */
  bus?: TaskEventBus | PostgresBusConfig | RedisBusConfig | NatsBusConfig;
  /**
   * How long a running instance's hold on a task lasts without renewal, in ms; tasks of a dead instance end
   * `failed` after it (those of a tool with `resume` run again on another instance). At most 2^31-1.
   * @default 30_000
   */
  lease?: number;
  /**
   * On shutdown, how long running tasks may finish before they are ended `failed` (those of a tool with `resume` are
   * handed over to another instance instead), in ms. A store error while ending them is retried for as long again
   * (at least 1 s). From 0 to 2^31-1.
   * @default 10_000
   */
  shutdownGrace?: number;
  /**
   * How long a task stays readable after it was created, in ms (`ttlMs`); `null`: no expiry. Any length up to
   * 10^15 ms; a run still going when it ends is stopped (`ctx.signal`).
   * @default 3_600_000 (1 h)
   */
  ttl?: number | null;
  /**
   * `pollIntervalMs` suggested to clients, how often a waiting task re-reads the store, how often an instance
   * re-reads the tasks it runs (to stop those ended elsewhere), and how often it looks for resumable tasks whose
   * instance stopped (at most every `lease/2`), in ms. At most 2^31-1.
   * @default 1_000
   */
  pollInterval?: number;
  /**
   * Live (non-terminal, unexpired) tasks one owner may have at once; `Infinity` for no limit.
   * @default 100
   */
  maxPerPrincipal?: number;
  /**
   * Live tasks on the whole server; reaching it behaves like the owner cap.
   * @default Infinity
   */
  maxTasks?: number;
  /**
   * `false` turns the Tasks extension off: it is not advertised, every tool runs synchronously and `tasks/*` are
   * unknown methods.
   * @default true
   */
  tasks?: boolean;
  /**
   * OAuth protection: bearer JWTs, RFC 9728 metadata, scopes.
   * @default none: every request is the host subject
   */
  auth?: McpAuthOptions;
  /**
   * Who a request is when `auth` is absent: the subject its tasks belong to, e.g. from a tenant or API-key header
   * (ignored with `auth`, where the token's `sub` is the subject).
   * @default one subject for the whole server ('host')
   */
  subject?: (req: IncomingMessage) => string | Promise<string>;
  /**
   * `false` turns telemetry off: no `mcp.task.*` events, no OpenTelemetry spans. With no OpenTelemetry SDK
   * registered and no `EventEmitterModule` imported it costs next to nothing.
   * @default true
   */
  telemetry?: boolean;
  /**
   * Guards to use instead of the library's (usually subclasses, whose hooks are protected): `scopes` runs first
   * among a tool's own guards, `ownership` behind `tasks/*` and listening. Built by Nest, so they may inject.
   * @default { scopes: McpScopesGuard, ownership: TaskOwnershipGuard }
   */
  guards?: { scopes?: Type<CanActivate>; ownership?: Type<CanActivate> };
  /**
   * Key that signs MRTR `requestState` (HMAC-SHA256), at least 16 characters. Instances behind one load balancer
   * must share it.
   * @default random per process (fine for one instance)
   */
  requestStateSecret?: string;
  /**
   * How long an MRTR `requestState` stays valid, in ms. At most 2^31-1.
   * @default 600_000 (10 min)
   */
  requestStateTtl?: number;
  /**
   * How long a question asked during a 2025-era client's plain `tools/call` (`elicitation/create`,
   * `sampling/createMessage`, `roots/list` on the call's stream) waits for the client's answer, in ms. Then the call
   * answers JSON-RPC `-32001` (the SDKs' request timeout) and a later answer is dropped. At most 2^31-1. Questions of
   * tasks and of 2026-07-28 calls (MRTR) do not wait in a request: this does not apply to them.
   * @default 300_000 (5 min)
   */
  questionTimeout?: number;
  /**
   * Host names the endpoint, its metadata and the console answer for (DNS-rebinding protection), as a URL spells them
   * (lower case, no scheme or port): requests with any other `Host` get 403. With `auth` and no `auth.resource`, the
   * only hosts a resource is taken from.
   * @default `localhost`, `127.0.0.1` and `[::1]` for a request that reached the app on loopback, else any (but with
   * `auth` and no `auth.resource`, none)
   */
  allowedHosts?: string[];
  /**
   * Origins allowed to call the endpoint from a browser (full origins or host names); others get 403.
   * @default the localhost names on loopback, and the request's own host
   */
  allowedOrigins?: string[];
  /**
   * Answer `POST <path>` requests for `tools/call` and `tasks/*` (told by their `Mcp-Method` header) straight from
   * the Node HTTP server, before the platform's router, middleware and body parser and before Nest's global
   * guards, interceptors, pipes and filters for the endpoint route. The library's own checks (host and origin,
   * headers, authentication, scopes, ownership) and the tools' own Nest guards and interceptors still run. About 3×
   * the `tasks/get` throughput; turn it on only when no app-wide middleware (CORS headers, rate limits, request
   * logging) must see those requests. Honours the global prefix (not its `exclude` list or URI versioning). Bodies
   * over 100 KB (Nest's default JSON limit) get 413 on the fast path whatever limit the app's body parser has.
   * @default false
   */
  fastPath?: boolean;
  /**
   * Trust `X-Forwarded-Host` and `X-Forwarded-Proto` from a reverse proxy in front of the app: the host check
   * (`allowedHosts`, `allowedOrigins`) reads the forwarded host, and a resource URL taken from the request (no
   * `auth.resource`) uses the forwarded scheme and host. Only turn it on when a proxy always sets them.
   * @default false
   */
  trustProxy?: boolean;
  /**
   * Modules whose providers' `@McpTool` methods this server exposes (e.g. `[AdminToolsModule]`), for apps that
   * register several servers; the others are not its tools.
   * @default every module of the app
   */
  include?: Array<Type<unknown>>;
  /**
   * class-transformer options for turning the objects and class instances tools return into `structuredContent`
   * (`instanceToPlain`, as Nest's `ClassSerializerInterceptor` does: `@Exclude()`, `@Expose()`, `groups`,
   * `excludePrefixes`, …). A tool's `@SerializeOptions()` (on the method, else its class) is applied over these.
   * @default {} (class-transformer's defaults: every property but those marked `@Exclude()`)
   */
  serializer?: ClassTransformOptions;
  /**
   * Upstream MCP servers whose tools this server serves as its own, prefixed `<name>_`: calls are forwarded with the
   * caller's capabilities, their MRTR rounds pass through, and a task the upstream starts is mirrored by a local
   * task (see docs/gateway.md). Needs `@mcp-tasks/client`, and a store with `TaskMirrors` (`adoptLapsedMirrors`:
   * both shipped stores have it; without it, startup fails naming the store).
   * @default none
   */
  upstreams?: McpUpstreamOptions[];
}
