-- Deletes the account if it holds nothing worth keeping. Answers 1 when deleted.
--@include forget
--@reply integer
if not live() then return 0 end
local s = redis.call('HMGET', base, 'off', 'f', 'hooks')
if (s[1] or '0') ~= '0' or (s[2] or '{}') ~= '{}' or s[3] then return 0 end
if redis.call('ZCARD', k('o')) > 0 or redis.call('HLEN', k('i')) > 0 or redis.call('LLEN', k('r')) > 0 then return 0 end
deleteAccount(false)
return 1
