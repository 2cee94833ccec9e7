-- Forgets a record if it is still the one held.
--@include records
--@reply integer
--@arg key string the Idempotency-Key
--@arg json string the record as held
if live() and redis.call('HGET', k('i'), key) == json then dropRecord(key) end
return 1
