import { INDEX_LUA } from './task-index.lua.js';

/**
 * `sweep`: deletes up to `limit` tasks whose expiry is at or before `now`, with their index entries.
 * ARGV: prefix, now, limit (-1: no limit). Returns how many it deleted.
 */
export const SWEEP_LUA = `${INDEX_LUA}
local p = ARGV[1]
local ids = redis.call('ZRANGEBYSCORE', p .. 'exp', '-inf', ARGV[2], 'LIMIT', 0, tonumber(ARGV[3]))
for _, id in ipairs(ids) do
  local owner = redis.call('HGET', tkey(p, id), 'owner')
  redis.call('DEL', tkey(p, id))
  for _, index in ipairs({ 'exp', 'created', 'live', 'lease' }) do redis.call('ZREM', p .. index, id) end
  if owner then
    redis.call('ZREM', p .. 'o:' .. owner, id)
    redis.call('ZREM', p .. 'live:' .. owner, id)
  end
end
return #ids
`;

/** `statuses`: `[id, status (JSON), …]` of the ids that exist unexpired at `now`. ARGV: prefix, now, ids. */
export const STATUSES_LUA = `${INDEX_LUA}
local p, now = ARGV[1], tonumber(ARGV[2])
local out = {}
for j = 3, #ARGV do
  local f = redis.call('HMGET', tkey(p, ARGV[j]), 'status', 'expiresAt')
  if f[1] and unexpired(f[2], now) then
    out[#out + 1] = ARGV[j]
    out[#out + 1] = f[1]
  end
end
return out
`;
