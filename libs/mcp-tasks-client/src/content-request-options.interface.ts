import type { CacheMode } from '@modelcontextprotocol/client';

/**
 * Options of `McpTasksClient.readResource` (defaults in brackets).
 * @publicApi
 */
export interface ReadResourceOptions {
  /**
   * [`'use'`] The SDK's response cache, which keeps a read for the `ttlMs` the server gave it: `'use'` answers
   * from a fresh entry without a request, `'refresh'` reads and stores again, `'bypass'` reads without the cache.
   */
  cacheMode?: CacheMode;
  /** [none] Aborts the request (and any input round it is in). */
  signal?: AbortSignal;
}

/**
 * Options of `McpTasksClient.complete` (defaults in brackets).
 * @publicApi
 */
export interface CompleteOptions {
  /** [none] The other arguments chosen so far (`context.arguments`), which may narrow the values. */
  context?: Record<string, string>;
  /** [none] Aborts the request. */
  signal?: AbortSignal;
}
