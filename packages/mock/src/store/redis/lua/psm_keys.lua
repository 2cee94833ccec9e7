-- Every record, oldest first.
--@include records
--@reply array
local out = {}
for _, key in ipairs(redis.call('ZRANGE', recordOrder(), 0, -1)) do
  table.insert(out, redis.call('HGET', k('i'), key))
end
return out
