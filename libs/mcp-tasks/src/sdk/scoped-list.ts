import type { Principal } from '../common/principal.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';

/**
 * What of a list a caller sees, as `tools/list` decides: everything without authentication (or with
 * `auth.listAllTools`), else the entries whose `@RequiredScopes` the caller's token grants.
 */
export function visibleTo<T extends { requiredScopes: readonly string[] }>(
  entries: readonly T[],
  caller: Principal,
  options: ResolvedOptions,
): T[] {
  if (!options.auth || options.auth.listAllTools) return [...entries];
  const granted = new Set(caller.scopes);
  return entries.filter((e) => e.requiredScopes.every((s) => granted.has(s)));
}
