-- Fleet-wide (no account): whether the sandbox has room (byte budget, total caps), after
-- forgetting idle accounts, least recently used first, if need be: { 1 or 0, then the bytes each
-- forgotten account held }.
--@include forget
--@reply array
--@arg now number|'' the instance's clock (ms), or '' for the server's TIME
--@arg memoryBudget number the sandbox's byte budget
--@arg maxPayments number the most payments in all
--@arg maxRecords number the most records in all
--@arg idleMs number how long an account unused is idle (ms)
local function full()
  local t = redis.call('HMGET', totals, 'b', 'p', 'r')
  return num(t[1]) >= tonumber(memoryBudget) or num(t[2]) >= tonumber(maxPayments) or num(t[3]) >= tonumber(maxRecords)
end
if not full() then return { 1 } end
local out = forgetIdle(serverTime(now) - tonumber(idleMs), function() return not full() end, MAX_FORGOTTEN_PER_CALL)
if full() then table.insert(out, 1, 0) else table.insert(out, 1, 1) end
return out
