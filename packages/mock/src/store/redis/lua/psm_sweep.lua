-- Fleet-wide (no account): drops up to `most` records expired on the server's clock in any
-- account. Answers how many went.
--@include records
--@reply integer
--@arg serverNow number the server's clock (ms)
--@arg most number the most records dropped
local members = redis.call('ZRANGEBYSCORE', prefix .. 'rx', '-inf', serverNow, 'LIMIT', 0, tonumber(most))
for _, member in ipairs(members) do
  local colon = string.find(member, ':', 1, true)
  h = string.sub(member, 1, colon - 1)
  base = prefix .. 'a:' .. h
  local key = string.sub(member, colon + 1)
  if redis.call('HEXISTS', k('ib'), key) == 1 then dropRecord(key) else redis.call('ZREM', prefix .. 'rx', member) end
end
return #members
