-- Adds seconds to the clock offset in one step, unless the sum passes max: answers the sum (stored
-- only when within max), or -1 when the account was reset since (nothing changed).
--@include account
--@reply integer
--@arg seconds number how far to advance the clock (whole seconds, 0 or more)
--@arg max number the most the offset may reach (seconds)
if not writable() then return -1 end
local offset = num(redis.call('HGET', base, 'off')) + tonumber(seconds)
if offset > tonumber(max) then return offset end
redis.call('HSET', base, 'off', offset)
reindex()
return offset
