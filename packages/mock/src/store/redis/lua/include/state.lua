-- The account's state a handle keeps: generation, offset, faults, webhooks used, endpoints;
-- whether it keeps data for good (a payment or a logged request: neither goes while its
-- generation lives, so releasing it would do nothing), and when its next PENDING payment
-- settles (key's clock; '' when none does). False when the account holds nothing.
--@include account
local function state(now)
  local s = redis.call('HMGET', base, 'gen', 'off', 'f', 'hooks')
  if not s[1] then return false end
  -- Used now (the server's time, or '' for the store's): idle keys go first when full.
  redis.call('ZADD', prefix .. 'used', serverTime(now), h)
  local kept = 0
  if redis.call('ZCARD', k('o')) > 0 or redis.call('LLEN', k('r')) > 0 then kept = 1 end
  local settles = first(k('s'))
  if settles then settles = tostring(settles) else settles = '' end
  return { s[1], s[2] or '0', s[3] or '{}', s[4] or '0', redis.call('HLEN', k('e')), kept, settles }
end
