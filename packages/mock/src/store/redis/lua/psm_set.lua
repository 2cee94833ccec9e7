-- Sets the clock offset (seconds) or the faults (JSON): 1, or 0 when the account was reset since.
--@include account
--@reply integer
--@arg field string 'off' (the clock offset) or 'f' (the faults)
--@arg value string|number its new value
if field ~= 'off' and field ~= 'f' then return redis.error_reply('psm_set sets off or f, not ' .. field) end
if not writable() then return 0 end
redis.call('HSET', base, field, value)
if field == 'off' then reindex() end
return 1
