/** Contestant names as they appear in the results (columns, chart series, targets). */
export { LIMIT, PG_LIMIT, SDK, MCP_NEST } from '../contestants/registry.js';

export const MEMORY = 'module/memory';
/** The same demo with `fastPath: false`: every request through Express and Nest's router. */
export const MEMORY_NEST_ROUTE = 'module/memory, fastPath off';
/** The same on Fastify (`MCP_ADAPTER=fastify`): every request through Fastify and Nest's router. */
export const FASTIFY_NEST_ROUTE = 'module/memory, Fastify, fastPath off';
export const SQLITE = 'module/SQLite';
export const POSTGRES = 'module/PostgreSQL';
/** The Redis store and bus, on a throwaway redis-server with the AOF on (`appendfsync everysec`). */
export const REDIS = 'module/Redis';
/** Two instances of the module on one PostgreSQL database, the load split between them (figures: their sum). */
export const POSTGRES_PAIR = 'module/PostgreSQL, two instances';
/** The first of those two alone with the whole load, in rounds interleaved with the pair's. */
export const POSTGRES_PAIR_ALONE = 'module/PostgreSQL, one of the two alone';
/** `--scale`: PostgreSQL with 1 000 000 live tasks (against 1 000 in another database). */
export const POSTGRES_MILLION = 'module/PostgreSQL, 1M live tasks';
/** A bare node:http + pg server running the module's SELECT / a plain INSERT: the database's own limit. */
/** JWT auth on, so that each client can create under an owner of its own. */
export const MEMORY_OWNERS = 'module/memory, JWT auth on';
export const POSTGRES_OWNERS = 'module/PostgreSQL, JWT auth on';
export const REDIS_OWNERS = 'module/Redis, JWT auth on';
export const CANCEL_CROSS = 'module/PostgreSQL, via B';
export const CANCEL_LOCAL = 'module/memory, same instance';
export const CPU_BASE = 'module/memory, telemetry on, auth off';
export const CPU_NO_TELEMETRY = 'module/memory, telemetry off';
export const CPU_OTEL_SDK = 'module/memory, telemetry on, OpenTelemetry SDK (exporter drops spans)';
export const CPU_AUTH = 'module/memory, JWT auth on';
export const CPU_BASE_FRESH = 'module/memory, auth off, the same new-token requests';
export const CPU_AUTH_FRESH = 'module/memory, JWT auth on, a new token per request';
export const CONSOLE_POSTGRES = 'module/PostgreSQL, operator console';
/** The gateway phase: a demo on memory as the upstream, called directly, and through a second demo in front of it. */
export const GATEWAY_DIRECT = 'module/memory, upstream called directly';
export const GATEWAY = 'module/memory, through a gateway (memory) to that upstream';
/** The gateway's limit in the same phase: a bare node:http relay to that upstream (contestants/limit-proxy.ts). */
export const GATEWAY_RELAY = "bare node:http relay to that upstream (the gateway's limit)";
/** The resume phase: resumable tasks of an instance killed or stopped, taken over by another on one database. */
export const RESUME_PAIR = 'module/PostgreSQL, resumable tasks taken over by a second instance';
/** The buses phase: the module on a PostgreSQL store, relaying on each bus (bench/scenarios/buses.ts). */
export const BUS_POSTGRES = 'module/PostgreSQL store, PostgreSQL bus';
export const BUS_REDIS = 'module/PostgreSQL store, Redis bus';
export const BUS_NATS = 'module/PostgreSQL store, NATS bus';
/** Another app's writer on the module's PostgreSQL database: alone, and while the module relays on each bus. */
export const WRITER_ALONE = 'another writer on the database, alone';
export const WRITER_PG_BUS = 'another writer, the module relaying on the PostgreSQL bus';
export const WRITER_REDIS_BUS = 'another writer, the module relaying on the Redis bus';
