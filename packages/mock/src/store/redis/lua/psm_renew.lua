-- Extends the leases the instance owner still holds among members to now + leaseMs; answers how
-- many it still held.
--@include account
--@reply integer
--@arg now number|'' the instance's clock (ms), or '' for the server's TIME
--@arg leaseMs number how long a lease lasts
--@arg owner string the instance's token
--@rest members string the attempts it holds
local leaseUntil = serverTime(now) + tonumber(leaseMs)
local held = 0
for _, member in ipairs(members) do
  if redis.call('HGET', k('qo'), member) == owner and redis.call('ZSCORE', k('ql'), member) then
    redis.call('ZADD', k('ql'), leaseUntil, member)
    held = held + 1
  end
end
if held > 0 then reindex() end
return held
