import type { IncomingMessage } from 'node:http';
import type { Type } from '@nestjs/common';
import type { McpAuthOptions } from '../auth/mcp-auth-options.interface.js';
import type { McpScopesGuard } from '../auth/mcp-scopes.guard.js';
import type { TaskOwnershipGuard } from '../auth/task-ownership.guard.js';
import type { TaskEventBus } from '../events/task-event-bus.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';

/** Identity the server reports in `server/discover` and on every result. */
export interface McpServerIdentity {
  /** Server name; also part of every task owner key (tasks never cross servers). */
  name: string;
  /** Server version. */
  version: string;
  /** Free-text instructions for clients, sent by `server/discover`. Default: none. */
  instructions?: string;
}

/** Settings of the event bus's own PostgreSQL connection: what the `pg` package's `Client` takes. */
export interface PostgresConnectionConfig {
  host?: string;
  port?: number;
  user?: string;
  password?: string | (() => string | Promise<string>);
  database?: string;
  connectionString?: string;
  ssl?: boolean | Record<string, unknown>;
  [setting: string]: unknown;
}

/** Options of `McpTasksModule.forRoot()` / `forRootAsync()`. */
export interface McpTasksModuleOptions {
  /** Name, version and instructions of this MCP server. Required. */
  server: McpServerIdentity;
  /** HTTP path of the endpoint. Default `/mcp`. */
  path?: string;
  /**
   * Where tasks live. Default: a new `MemoryTaskStore` (one node, lost on restart). `{ type: 'typeorm' }`
   * uses the app's TypeORM connection (`dataSource`: its name, default the unnamed one; add
   * `mcpTasksEntities`/`mcpTasksMigrations` to it): SQLite for one durable node, PostgreSQL for several.
   */
  store?: TaskStore | { type: 'typeorm'; dataSource?: string };
  /**
   * How instances tell each other about cancels, answers and status changes. Default: in this process.
   * `{ type: 'postgres' }` uses LISTEN/NOTIFY on its own connection (`connection`, default: the TypeORM
   * store's PostgreSQL); any `TaskEventBus` instance works too.
   */
  bus?: TaskEventBus | { type: 'postgres'; connection?: string | PostgresConnectionConfig; channel?: string };
  /**
   * How long a running instance's hold on a task lasts without renewal, in ms; tasks of a dead instance end
   * `failed` after it. Default 30 000.
   */
  lease?: number;
  /** On shutdown, how long running tasks may finish before they are ended `failed`, in ms. Default 10 000. */
  shutdownGrace?: number;
  /**
   * How long a task stays readable after it was created, in ms; `null` keeps tasks until the store drops them.
   * Default 3 600 000 (1 h).
   */
  ttl?: number | null;
  /**
   * Suggested polling interval sent as `pollIntervalMs`, and how often a waiting task re-reads the store, in ms.
   * Default 1 000.
   */
  pollInterval?: number;
  /** Live (non-terminal, unexpired) tasks one owner may have at once; `Infinity` for no limit. Default 100. */
  maxPerPrincipal?: number;
  /** Live tasks on the whole server; reaching it behaves like the owner cap. Default `Infinity`. */
  maxTasks?: number;
  /** `false` turns the Tasks extension off: it is not advertised and every tool runs synchronously. Default `true`. */
  tasks?: boolean;
  /** OAuth protection (bearer JWTs, RFC 9728 metadata, scopes). Default: none — every request is the host scope. */
  auth?: McpAuthOptions;
  /**
   * The subject of a request when `auth` is absent (the "host scope"), e.g. a tenant or API-key header.
   * Default: one subject for the whole server.
   */
  scope?: (req: IncomingMessage) => string | Promise<string>;
  /** Older name of `scope`. */
  principal?: (req: IncomingMessage) => string | Promise<string>;
  /**
   * `false` turns telemetry off: no `mcp.task.*` events, no OpenTelemetry spans. Default `true` (with no
   * OpenTelemetry SDK registered and no EventEmitter module imported, it costs next to nothing).
   */
  telemetry?: boolean;
  /** Subclasses of the library's guards to use instead (their hooks are protected). Default: the library's own. */
  guards?: { scopes?: Type<McpScopesGuard>; ownership?: Type<TaskOwnershipGuard> };
  /**
   * Key that signs MRTR `requestState` (HMAC-SHA256). Instances behind one load balancer must share it.
   * Default: random per process (fine for one instance).
   */
  requestStateSecret?: string;
  /** How long an MRTR `requestState` stays valid, in ms. Default 600 000 (10 min). */
  requestStateTtl?: number;
  /**
   * Host names the endpoint answers for (DNS-rebinding protection): requests with any other `Host`
   * get 403. Default: `localhost`, `127.0.0.1` and `[::1]` when the app listens on loopback, else any.
   */
  allowedHosts?: string[];
  /** Origins allowed to call the endpoint from a browser; others get 403. Default: none but same-host. */
  allowedOrigins?: string[];
  /**
   * Answer `POST <path>` requests for `tools/call` and `tasks/*` (told by their `Mcp-Method` header)
   * straight from the Node HTTP server, before the platform's router, middleware and body parser and
   * before Nest's global guards, interceptors, pipes and filters for the endpoint route. The library's
   * own checks (host and origin, headers, authentication, scopes, ownership) and the tools' own Nest
   * guards and interceptors still run. About 3× the `tasks/get` throughput; turn it on only when no
   * app-wide middleware (CORS headers, rate limits, request logging) must see those requests.
   * Honours the global prefix (not its `exclude` list or URI versioning). Bodies over 100 KB (Nest's
   * default JSON limit) get 413 on the fast path whatever limit the app's body parser has. Default `false`.
   */
  fastPath?: boolean;
}
