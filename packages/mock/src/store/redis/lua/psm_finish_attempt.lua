-- Marks an attempt as made: forgets it, leased or still scheduled, and schedules its retry in the
-- same step when one is given (an instance that dies after either never leaves the attempt made
-- without its retry). Answers the retry's sequence, or -1 (none given, or too many waiting).
--@include webhooks
--@reply integer
--@arg member string the attempt
--@optional retry the attempt's retry
--@arg dueAt number when it is due (key's clock)
--@arg json string the retry
--@arg budget number the bytes the attempts waiting may hold
unschedule(member)
redis.call('ZREM', k('ql'), member)
redis.call('HDEL', k('qo'), member)
redis.call('HDEL', k('qd'), member)
local seq = -1
if retry and writable() then seq = schedule(dueAt, json, budget) end
reindex()
return seq
