-- Schedules an attempt: its sequence, or -1 (nothing scheduled) when the key has too many waiting.
--@include webhooks
--@reply integer
--@arg dueAt number when it is due (key's clock)
--@arg json string the attempt
--@arg budget number the bytes the attempts waiting may hold
if not writable() then return -1 end
local seq = schedule(dueAt, json, budget)
if seq >= 0 then reindex() end
return seq
