/**
 * How long a client or a shared cache may keep a `resources/read` result (2026-07-28 caching hints; earlier
 * revisions have none).
 * @publicApi
 */
export interface ResourceCacheHint {
  /** Milliseconds the contents stay fresh. */
  ttlMs: number;
  /**
   * Who may share the cached contents.
   * @default 'private' with authentication, else 'public'
   */
  cacheScope?: 'public' | 'private';
}
