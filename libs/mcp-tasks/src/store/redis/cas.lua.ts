import { INDEX_LUA } from './task-index.lua.js';

/**
 * Compare-and-set of several tasks: each task's fields are set and deleted only while its version is still the one
 * the caller read (then the version moves on), so a change computed from a stale read never lands — the caller
 * reads again and retries. ARGV: prefix, count, then per task: id, version, n, n field/value pairs, m, m fields to
 * delete. Returns the ids written.
 */
export const CAS_LUA = `${INDEX_LUA}
local p = ARGV[1]
local i = 3
local done = {}
for _ = 1, tonumber(ARGV[2]) do
  local id, v, nset = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
  local delAt = i + 3 + 2 * nset
  local ndel = tonumber(ARGV[delAt])
  local k = tkey(p, id)
  if redis.call('HGET', k, '_v') == v then
    if nset > 0 then redis.call('HSET', k, unpack(ARGV, i + 3, delAt - 1)) end
    if ndel > 0 then redis.call('HDEL', k, unpack(ARGV, delAt + 1, delAt + ndel)) end
    redis.call('HINCRBY', k, '_v', 1)
    reindex(p, id)
    done[#done + 1] = id
  end
  i = delAt + 1 + ndel
end
return done
`;
