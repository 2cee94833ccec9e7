-- Takes the payments due to settle off the schedule (one caller gets each): five fields each.
--@include payments
--@reply array
--@arg accountNow number the key's clock (ms)
if not live() then return {} end
local ids = redis.call('ZRANGEBYSCORE', k('s'), '-inf', accountNow)
if #ids == 0 then
  reindex() -- the index may have named a payment evicted since
  return {}
end
for _, id in ipairs(ids) do redis.call('ZREM', k('s'), id) end
reindex()
return payments(ids)
