-- Compare-and-set: the payment's new JSON and one more timeline step, only if its JSON is still
-- the one read (the key's oldest steps after the first go past MAX_TIMELINE_STEPS). With a
-- completion, the Idempotency-Key record is completed with it (if it is still ours). Answers 1
-- (done) or 0.
--@include payments records
--@reply integer
--@arg id string the payment's id
--@arg expectedJson string its JSON as read
--@arg json string its new JSON
--@arg stepJson string the timeline step taken
--@arg bytes number its bytes without token and timeline
--@optional completion the Idempotency-Key record completed with it
--@arg key string the Idempotency-Key
--@arg inFlightJson string the record as claimed
--@arg completedJson string the record with its answer
--@arg responseBytes number the answer's bytes
--@arg maxRecords number the most records a key keeps
--@arg budget number the key's byte budget
if not live() then return 0 end
local v = redis.call('HMGET', k('p'), id, f(id, 'c'), f(id, 'm'), f(id, 'b'))
if v[1] ~= expectedJson then return 0 end
local steps = v[2]
if steps then steps = string.sub(steps, 1, -2) .. ',' .. stepJson .. ']' else steps = '[' .. stepJson .. ']' end
local _, commas = string.gsub(steps, '},{', '')
for _ = 1, commas + 1 - (MAX_TIMELINE_STEPS - 1) do
  steps = '[' .. string.sub(steps, string.find(steps, '},{', 1, true) + 2)
end
local meta = cjson.decode(v[3])
local token = meta[1]
local size = tonumber(bytes) + 2 * #token + 2 * #steps
addBytes(size - num(v[4]))
redis.call('HSET', k('p'), id, json, f(id, 'c'), steps, f(id, 'b'), size)
-- A payment that left PENDING (settled) settles no more: its meta's settlement time goes, as a
-- reader's check of the stored payment requires (settles_at only on a PENDING payment).
if meta[2] ~= cjson.null and cjson.decode(json).status ~= 'PENDING' then
  meta[2] = cjson.null
  redis.call('HSET', k('p'), f(id, 'm'), cjson.encode(meta))
end
-- The answer an Idempotency-Key replays, completed with the change (if its record is still ours).
if completion then complete(key, inFlightJson, completedJson, responseBytes, maxRecords, budget) end
return 1
