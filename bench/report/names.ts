/** Contestant names as they appear in the results (columns, chart series, targets). */
export { LIMIT, SDK, MCP_NEST } from '../contestants/registry.js';

export const MEMORY = 'module/memory';
/** The same demo with `fastPath: false`: every request through Express and Nest's router. */
export const MEMORY_NEST_ROUTE = 'module/memory, fastPath off';
export const SQLITE = 'module/SQLite';
export const POSTGRES = 'module/PostgreSQL';
export const CANCEL_CROSS = 'module/PostgreSQL, via B';
export const CANCEL_LOCAL = 'module/memory, same instance';
export const CPU_BASE = 'module/memory, telemetry on, auth off';
export const CPU_NO_TELEMETRY = 'module/memory, telemetry off';
export const CPU_AUTH = 'module/memory, JWT auth on';
export const CPU_BASE_FRESH = 'module/memory, auth off, the same new-token requests';
export const CPU_AUTH_FRESH = 'module/memory, JWT auth on, a new token per request';
export const CONSOLE_POSTGRES = 'module/PostgreSQL, operator console';
