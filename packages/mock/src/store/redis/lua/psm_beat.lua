-- Fleet-wide (no account): the instance owner is alive until now + aliveMs; instances whose beat
-- ended are forgotten. aliveMs 0: it stopped (forgotten at once).
--@include account
--@reply integer
--@arg now number|'' the instance's clock (ms), or '' for the server's TIME
--@arg aliveMs number how long it counts as alive
--@arg owner string the instance's token
local at = serverTime(now)
redis.call('ZREMRANGEBYSCORE', prefix .. 'alive', '-inf', '(' .. at)
if tonumber(aliveMs) == 0 then redis.call('ZREM', prefix .. 'alive', owner) return 0 end
redis.call('ZADD', prefix .. 'alive', at + tonumber(aliveMs), owner)
return 1
