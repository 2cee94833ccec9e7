-- The account's Idempotency-Key records: 'i' (key → JSON), 'ib' (bytes), 'io' (the instance
-- holding one in flight), 'ie' (expiry, key's clock), 'ic' (the order they were written in, by the
-- account's counter 'rs') and the fleet's 'rx' (expiry, server's clock).
--@include account
-- The records oldest first, as the memory store keeps them: 'ic'; by expiry ('ie', where records
-- of one instant sort by name) while records written before 'ic' existed are held.
local function recordOrder()
  if redis.call('ZCARD', k('ic')) == redis.call('HLEN', k('i')) then return k('ic') end
  return k('ie')
end
local function dropRecord(key)
  local b = redis.call('HGET', k('ib'), key)
  if not b then return end
  redis.call('HDEL', k('i'), key)
  redis.call('HDEL', k('ib'), key)
  redis.call('HDEL', k('io'), key)
  redis.call('ZREM', k('ie'), key)
  redis.call('ZREM', k('ic'), key)
  redis.call('ZREM', prefix .. 'rx', h .. ':' .. key)
  redis.call('HINCRBY', totals, 'r', -1)
  addBytes(-tonumber(b))
end
local function expireRecords(now)
  for _, key in ipairs(redis.call('ZRANGEBYSCORE', k('ie'), '-inf', now)) do dropRecord(key) end
end
-- Drops the oldest records, never keep (the one just written), while the key holds more than
-- maxRecords or is over its budget. keep may come first (ordered by expiry, records of one
-- instant sort by name): the next one goes instead, so the cap and the budget hold.
local function trimRecords(keep, maxRecords, budget)
  while redis.call('HLEN', k('i')) > maxRecords or overBudget(budget) do
    local first = redis.call('ZRANGE', recordOrder(), 0, 1)
    local oldest = first[1]
    if oldest == keep then oldest = first[2] end
    if not oldest then break end
    dropRecord(oldest)
  end
end
-- Whether the in-flight record held under key was taken by an instance that stopped beating
-- (killed before its answer): nobody will complete it, and the step it was taken for was not
-- made (a create or a payment's change is stored together with its answer).
local function abandoned(key, held, serverNow)
  local owner = redis.call('HGET', k('io'), key)
  if not owner or cjson.decode(held).response ~= nil then return false end
  local beat = tonumber(redis.call('ZSCORE', prefix .. 'alive', owner))
  return not beat or beat < serverNow
end
-- Takes key for a request (json, in flight) unless a record holds it: false, or the record held.
-- A record abandoned by a dead instance is dropped and the key taken. owner: the instance's
-- token ('' for none), serverNow: its clock ('' for the server's TIME).
local function claim(key, json, bytes, now, expiresAt, serverExpiresAt, maxRecords, budget, owner, serverNow)
  expireRecords(now)
  local held = redis.call('HGET', k('i'), key)
  if held then
    if not abandoned(key, held, serverTime(serverNow)) then return held end
    dropRecord(key)
  end
  redis.call('HSET', k('i'), key, json)
  if owner and owner ~= '' then redis.call('HSET', k('io'), key, owner) end
  redis.call('HSET', k('ib'), key, bytes)
  redis.call('ZADD', k('ie'), expiresAt, key)
  redis.call('ZADD', k('ic'), redis.call('HINCRBY', base, 'rs', 1), key)
  redis.call('ZADD', prefix .. 'rx', serverExpiresAt, h .. ':' .. key)
  redis.call('HINCRBY', totals, 'r', 1)
  addBytes(tonumber(bytes))
  trimRecords(key, tonumber(maxRecords), tonumber(budget))
  return false
end
-- Completes the in-flight record held under key (if it is still inFlightJson) with its first
-- answer: 1, or 0 when another record holds the key now.
local function complete(key, inFlightJson, completedJson, responseBytes, maxRecords, budget)
  if redis.call('HGET', k('i'), key) ~= inFlightJson then return 0 end
  redis.call('HSET', k('i'), key, completedJson)
  redis.call('HDEL', k('io'), key)
  redis.call('HINCRBY', k('ib'), key, responseBytes)
  addBytes(tonumber(responseBytes))
  trimRecords(key, tonumber(maxRecords), tonumber(budget))
  return 1
end
