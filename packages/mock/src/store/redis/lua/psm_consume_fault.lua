-- Consumes one armed fail_next or drop_after_commit: { the fault as it was, faults now }, or nil
-- when none is armed.
--@include account
--@reply array?
--@arg which string 'fail_next' or 'drop_after_commit'
if not live() then return false end
local faults = cjson.decode(redis.call('HGET', base, 'f') or '{}')
local fault = faults[which]
if type(fault) ~= 'table' then return false end
local taken = cjson.encode(fault)
fault.count = (tonumber(fault.count) or 0) - 1
if fault.count <= 0 then faults[which] = nil end
local now = '{}'
if next(faults) then now = cjson.encode(faults) end
redis.call('HSET', base, 'f', now)
return { taken, now }
