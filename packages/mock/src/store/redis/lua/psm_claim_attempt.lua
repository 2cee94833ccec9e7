-- Takes the earliest attempt due at accountNow and leases it to owner until leaseUntil (server's
-- clock), after putting back the attempts whose lease ended: { member, 'dueAt|json' } or nil.
-- With serverNow '', the server's TIME is the clock and the lease lasts leaseMs. With maxLeased,
-- none is taken while that many attempts of the key are leased, by any instance (fair slots per
-- key across the fleet). The lease is renewed by psm_renew while the instance sends.
--@include webhooks
--@reply array?
--@arg accountNow number the key's clock (ms)
--@arg serverNow number|'' the instance's clock, or '' for the server's TIME
--@arg leaseUntil number|'' when the lease ends (with serverNow)
--@arg leaseMs number how long a lease lasts (without serverNow)
--@arg owner string the instance's token
--@arg maxLeased number|'' the most attempts of the key leased at once, or '' for no bound
if not live() then return false end
local at, untilAt = tonumber(serverNow), tonumber(leaseUntil)
if not at then
  -- No clock given: the server's own, the same for every instance of the fleet.
  at = serverTime('')
  untilAt = at + tonumber(leaseMs)
end
releaseLeases(at)
local most = tonumber(maxLeased)
if most and redis.call('ZCARD', k('ql')) >= most then
  reindex()
  return false
end
local member = redis.call('ZRANGEBYSCORE', k('q'), '-inf', accountNow, 'LIMIT', 0, 1)[1]
if not member then
  reindex()
  return false
end
unschedule(member)
redis.call('ZADD', k('ql'), untilAt, member)
redis.call('HSET', k('qo'), member, owner)
reindex()
return { member, redis.call('HGET', k('qd'), member) }
