-- Registers or stores an endpoint. Answers the endpoint count, or -1 when nothing was stored.
--@include account
--@reply integer
--@arg id string the endpoint's id
--@arg json string its record
--@arg onlyIfHeld string '1': only if it is still held (a disabled one), '0': also a new one
if not writable() then return -1 end
local held = redis.call('HEXISTS', k('e'), id) == 1
if onlyIfHeld == '1' and not held then return -1 end
if not held then redis.call('RPUSH', k('eo'), id) end
redis.call('HSET', k('e'), id, json)
redis.call('HSET', base, 'hooks', '1')
return redis.call('HLEN', k('e'))
