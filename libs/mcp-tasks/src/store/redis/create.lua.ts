import { INDEX_LUA } from './task-index.lua.js';

/**
 * `create`: the caps counted and the task written in one script, so racing creates on any number of instances
 * never pass a cap. A task counts while it is in `live` (not terminal) with an expiry after `now`.
 * ARGV: prefix, id, owner (JSON), now, maxPerOwner, maxTotal ('inf': none), createdAt, expiresAt (JSON), then the
 * hash's field/value pairs. Returns the `CreateOutcome`.
 */
export const CREATE_LUA = `${INDEX_LUA}
local p, id, owner = ARGV[1], ARGV[2], ARGV[3]
local since = '(' .. ARGV[4]
if ARGV[5] ~= 'inf' and redis.call('ZCOUNT', p .. 'live:' .. owner, since, '+inf') >= tonumber(ARGV[5]) then
  return 'owner-limit'
end
if ARGV[6] ~= 'inf' and redis.call('ZCOUNT', p .. 'live', since, '+inf') >= tonumber(ARGV[6]) then
  return 'server-limit'
end
local k = tkey(p, id)
redis.call('DEL', k)
redis.call('HSET', k, '_v', '1', unpack(ARGV, 9))
redis.call('ZADD', p .. 'created', ARGV[7], id)
redis.call('ZADD', p .. 'o:' .. owner, ARGV[7], id)
if score(ARGV[8]) then redis.call('ZADD', p .. 'exp', ARGV[8], id) end
reindex(p, id)
return 'created'
`;
