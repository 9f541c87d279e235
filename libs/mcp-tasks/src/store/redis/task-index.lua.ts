/**
 * Lua every script starts with. Values are the JSON Node wrote: a status is `"working"` with its quotes, a missing
 * field reads as `false`, and `null` is the text `null` (so `tonumber` gives nil for both, as for "no expiry").
 * `reindex` puts a task in, or takes it out of, the indexes that follow its status and lease: `live` and
 * `live:<owner>` (non-terminal tasks, scored by expiry: the caps count them) and `lease` (live tasks with a lease,
 * scored by its expiry: the takeovers read it oldest first).
 */
export const INDEX_LUA = `
local function tkey(p, id) return p .. 't:' .. id end
local function terminal(s) return s == '"completed"' or s == '"failed"' or s == '"cancelled"' end
local function score(v) if v and tonumber(v) then return v end return nil end
local function unexpired(v, now) local e = tonumber(v) return e == nil or e > now end
local function reindex(p, id)
  local f = redis.call('HMGET', tkey(p, id), 'status', 'owner', 'expiresAt', 'leaseExpiresAt')
  local live = f[1] and not terminal(f[1])
  if live then
    local exp = score(f[3]) or '+inf'
    redis.call('ZADD', p .. 'live', exp, id)
    redis.call('ZADD', p .. 'live:' .. f[2], exp, id)
  else
    redis.call('ZREM', p .. 'live', id)
    if f[2] then redis.call('ZREM', p .. 'live:' .. f[2], id) end
  end
  local lease = score(f[4])
  if live and lease then redis.call('ZADD', p .. 'lease', lease, id) else redis.call('ZREM', p .. 'lease', id) end
end
`;
