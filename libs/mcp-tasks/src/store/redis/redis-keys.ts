/** The default `keyPrefix`. */
export const DEFAULT_REDIS_PREFIX = 'mcp-tasks:';

/**
 * Key names: `<prefix>t:<id>` a task's hash; the indexes `created`, `exp`, `live`, `lease`, and per owner key
 * `o:<owner>` and `live:<owner>` (sorted sets). The Lua scripts build them from the prefix they are given, owner keys
 * JSON-encoded as the `owner` field holds them, so a script names an owner's index from the task's own field. Scripts
 * reach keys they compute themselves: one Redis server (or a primary with replicas), not Redis Cluster.
 */
export class RedisKeys {
  constructor(readonly prefix: string) {}

  task(id: string): string {
    return `${this.prefix}t:${id}`;
  }
}
