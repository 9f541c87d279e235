import { INDEX_LUA } from './task-index.lua.js';

/**
 * `listByOwner`'s read: from each owner key's index, newest first from the cursor's time on, whole tasks unexpired
 * at `now` and of the sessions asked for — `limit` of them before the cursor's time, plus every one at that very
 * time (the store keeps those after the cursor's id: ids are compared in Node, as the other stores order them).
 * ARGV: prefix, now, limit, cursor time ('' for none), session mode ('any' | 'none' | 'one'), session (JSON),
 * then the owner keys (JSON). Returns the hashes.
 */
export const OWNER_LIST_LUA = `${INDEX_LUA}
local p, now, limit, at, mode, session = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], ARGV[5], ARGV[6]
local out = {}
for j = 7, #ARGV do
  local key, taken, offset = p .. 'o:' .. ARGV[j], 0, 0
  while taken < limit do
    local top = at == '' and '+inf' or at
    local rows = redis.call('ZREVRANGEBYSCORE', key, top, '-inf', 'WITHSCORES', 'LIMIT', offset, 200)
    if #rows == 0 then break end
    offset = offset + #rows / 2
    for x = 1, #rows, 2 do
      local tie = at ~= '' and tonumber(rows[x + 1]) == tonumber(at)
      if taken >= limit and not tie then break end
      local k = tkey(p, rows[x])
      local f = redis.call('HMGET', k, 'expiresAt', 'session')
      local s = f[2]
      local inSession = mode == 'any' or not s or s == 'null' or (mode == 'one' and s == session)
      if unexpired(f[1], now) and inSession then
        out[#out + 1] = redis.call('HGETALL', k)
        if not tie then taken = taken + 1 end
      end
    end
  end
end
return out
`;

/**
 * The console's read: the given fields of every task unexpired at `now` created in `[from, before)` — one
 * consistent snapshot, O(tasks in that range). ARGV: prefix, now, from ('-inf' for none), before ('+inf'), fields.
 * Returns one array of values per task.
 */
export const SCAN_LUA = `${INDEX_LUA}
local p, now = ARGV[1], tonumber(ARGV[2])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', p .. 'created', ARGV[3], ARGV[4])) do
  local k = tkey(p, id)
  if unexpired(redis.call('HGET', k, 'expiresAt'), now) then
    out[#out + 1] = redis.call('HMGET', k, unpack(ARGV, 5))
  end
end
return out
`;
