-- Registers a new endpoint, or stores a held endpoint's new state. Answers the endpoint count;
-- -1 when nothing was stored (reset since, or not held when only a held one may be stored); -2,
-- storing nothing, when it is a new endpoint and the key already has max; -3, storing nothing,
-- when only a new one may be stored and the key holds one with this id (its id drawn again).
--@include account
--@reply integer
--@arg id string the endpoint's id
--@arg json string its record
--@arg onlyIfHeld string '1': only if it is still held (a disabled one), '0': only a new one
--@arg max number the most endpoints a key may have
if not writable() then return -1 end
local held = redis.call('HEXISTS', k('e'), id) == 1
if onlyIfHeld == '1' and not held then return -1 end
if onlyIfHeld == '0' and held then return -3 end
if not held and redis.call('HLEN', k('e')) >= tonumber(max) then return -2 end
if not held then redis.call('RPUSH', k('eo'), id) end
redis.call('HSET', k('e'), id, json)
redis.call('HSET', base, 'hooks', '1')
return redis.call('HLEN', k('e'))
