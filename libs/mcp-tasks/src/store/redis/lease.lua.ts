import { INDEX_LUA } from './task-index.lua.js';

/**
 * `renewLeases`: each live task among the ids whose lease the owner holds, or nobody does, gets the owner's lease
 * until the given time. ARGV: prefix, owner (JSON), until, ids. Returns the ids renewed.
 */
export const RENEW_LUA = `${INDEX_LUA}
local p, owner = ARGV[1], ARGV[2]
local out = {}
for j = 4, #ARGV do
  local id = ARGV[j]
  local k = tkey(p, id)
  local f = redis.call('HMGET', k, 'status', 'leaseOwner')
  if f[1] and not terminal(f[1]) and (not f[2] or f[2] == 'null' or f[2] == owner) then
    redis.call('HSET', k, 'leaseOwner', owner, 'leaseExpiresAt', ARGV[3])
    redis.call('HINCRBY', k, '_v', 1)
    reindex(p, id)
    out[#out + 1] = id
  end
end
return out
`;

/**
 * `releaseLeases`: each live task among the ids whose lease the owner holds loses it — no holder, expiry 0 (lapsed
 * before any clock, first in line for the next takeover). ARGV: prefix, owner (JSON), ids.
 */
export const RELEASE_LUA = `${INDEX_LUA}
local p, owner = ARGV[1], ARGV[2]
for j = 3, #ARGV do
  local id = ARGV[j]
  local k = tkey(p, id)
  local f = redis.call('HMGET', k, 'status', 'leaseOwner')
  if f[1] and not terminal(f[1]) and f[2] == owner then
    redis.call('HSET', k, 'leaseOwner', 'null', 'leaseExpiresAt', '0')
    redis.call('HINCRBY', k, '_v', 1)
    reindex(p, id)
  end
end
return 0
`;

/**
 * The takeovers' search: up to `limit` live, unexpired tasks whose lease lapsed before `now`, oldest lapse first,
 * of one kind — 'tasks' (neither a mirror nor resumable), 'mirrors' (`upstream` set) or 'runs' (`resume` set) —
 * whole. A non-empty needle keeps owner keys containing it (one server's; the store confirms with the parsed key).
 * ARGV: prefix, now, limit, kind, needle (as it appears inside the JSON of the owner key).
 */
export const LAPSED_LUA = `${INDEX_LUA}
local p, now, limit, kind, needle = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5]
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'lease', '-inf', '(' .. ARGV[2])) do
  if #out >= limit then break end
  local k = tkey(p, id)
  local f = redis.call('HMGET', k, 'status', 'expiresAt', 'upstream', 'resume', 'owner')
  local up = f[3] and f[3] ~= 'null'
  local rs = f[4] and f[4] ~= 'null'
  local want = (kind == 'tasks' and not up and not rs) or (kind == 'mirrors' and up) or (kind == 'runs' and rs)
  if want and f[1] and not terminal(f[1]) and unexpired(f[2], now)
      and (needle == '' or string.find(f[5], needle, 1, true)) then
    out[#out + 1] = redis.call('HGETALL', k)
  end
end
return out
`;
