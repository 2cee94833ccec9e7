-- The attempts scheduled (not leased), as { member, 'dueAt|json' } pairs.
--@include account
--@reply array
local out = {}
for _, member in ipairs(redis.call('ZRANGE', k('q'), 0, -1)) do
  local d = redis.call('HGET', k('qd'), member)
  if d then table.insert(out, member); table.insert(out, d) end
end
return out
