-- Stores a new payment as the newest, evicts the key's oldest past its cap or budget, and
-- completes its Idempotency-Key record when one is given (only the in-flight record it was
-- claimed as). Answers { sequence, held (1/0) }, CLOSED (the account was reset since), TAKEN
-- (nothing made) when another request holds the key in flight: it was taken over while this
-- instance was presumed dead (no heartbeat), or ID_HELD (nothing made) when the key holds a
-- payment with this id (another instance with the same seed drew it: the caller draws again).
--@include payments records
--@reply array|string
--@arg id string the payment's id
--@arg json string its JSON
--@arg meta string its meta (token, settlement time, first timeline step)
--@arg settlesAt number|'' when it settles (key's clock), or '' when it does not
--@arg bytes number its bytes
--@arg maxPayments number the most payments a key keeps
--@arg budget number the key's byte budget
--@arg maxRecords number the most records a key keeps
--@arg changes string its timeline steps after the first, or ''
--@optional completion the Idempotency-Key record completed with it
--@arg key string the Idempotency-Key
--@arg inFlightJson string the record as claimed
--@arg completedJson string the record with its answer
--@arg responseBytes number the answer's bytes
if not writable() then return CLOSED end
if completion and redis.call('HGET', k('io'), key) and redis.call('HGET', k('i'), key) ~= inFlightJson then
  return TAKEN
end
if redis.call('HEXISTS', k('p'), id) == 1 then return ID_HELD end
local keyBudget = tonumber(budget)
local seq = redis.call('HINCRBY', base, 'seq', 1) - 1
redis.call('ZADD', k('o'), seq, id)
if changes ~= '' then
  redis.call('HSET', k('p'), id, json, f(id, 'm'), meta, f(id, 'b'), bytes, f(id, 's'), seq, f(id, 'c'), changes)
else
  redis.call('HSET', k('p'), id, json, f(id, 'm'), meta, f(id, 'b'), bytes, f(id, 's'), seq)
end
redis.call('HINCRBY', totals, 'p', 1)
addBytes(tonumber(bytes))
if settlesAt ~= '' then redis.call('ZADD', k('s'), settlesAt, id) end
local max = tonumber(maxPayments)
local dropped = false
while true do
  local count = redis.call('ZCARD', k('o'))
  if not (count > max or (count > 1 and overBudget(keyBudget))) then break end
  dropPayment(redis.call('ZRANGE', k('o'), 0, 0)[1])
  dropped = true
end
trimRecords(nil, tonumber(maxRecords), keyBudget)
if completion then complete(key, inFlightJson, completedJson, responseBytes, maxRecords, keyBudget) end
-- An evicted payment may have been the next to settle.
if settlesAt ~= '' or dropped then reindex() end
local held = 0
if redis.call('HEXISTS', k('p'), id) == 1 then held = 1 end
return { seq, held }
