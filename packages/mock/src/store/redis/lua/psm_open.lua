-- The account's state (see state.lua), created empty (a new generation) when absent. Refuses a
-- prefix of another store format version; marks a fresh one as ours. With a claim, also claims
-- the Idempotency-Key, if the key's clock offset is still the one the claim was computed with and
-- no fault is armed: after the state comes false (claimed), the record held, SKIPPED, or NONE (no
-- claim asked). Then how many fields of the payment asked for follow (0 or 5: none asked or not
-- held), and those fields. A new account beyond maxAccounts forgets idle ones: the bytes each
-- held follow.
--@include state records payments forget
--@reply array
--@arg now number|'' the instance's clock (ms), or '' for the server's TIME
--@arg format string the store format version this sandbox writes
--@arg maxAccounts number the most accounts kept
--@arg idleMs number how long an account unused is idle (ms)
--@arg paymentId string a payment to read with it, or ''
--@optional claiming the claim of an Idempotency-Key (as psm_claim_key's), made in the same step
--@arg key string the Idempotency-Key
--@arg json string its record, in flight
--@arg bytes number the record's bytes
--@arg accountNow number the key's clock (ms)
--@arg expiresAt number when the record expires (key's clock)
--@arg serverExpiresAt number when it expires (server's clock)
--@arg maxRecords number the most records a key keeps
--@arg budget number the key's byte budget
--@arg owner string the instance taking it
--@arg serverNow number|'' the instance's clock, or '' for the server's TIME
--@arg offset string the key's clock offset (seconds) accountNow was computed with
local stored = redis.call('GET', prefix .. 'format')
if not stored then redis.call('SET', prefix .. 'format', format)
elseif stored ~= format then
  return redis.error_reply(FORMAT_REFUSED .. ' the keys under "' .. prefix .. '" are of store format ' .. stored .. ', not ' .. format .. ': use another prefix, or delete them')
end
local created = false
if not redis.call('HGET', base, 'gen') then
  created = true
  -- Unique across restarts of a server without persistence: the time, then a counter.
  local time = redis.call('TIME')
  local gen = time[1] .. time[2] .. '-' .. redis.call('INCR', prefix .. 'gen')
  redis.call('HSET', base, 'gen', gen, 'off', '0', 'f', '{}', 'b', '0')
  addBytes(ACCOUNT_BYTES)
end
local s = state(now)
if not claiming then
  table.insert(s, NONE)
elseif s[2] == offset and s[3] == '{}' then
  table.insert(s, claim(key, json, bytes, accountNow, expiresAt, serverExpiresAt, maxRecords, budget, owner, serverNow))
else
  table.insert(s, SKIPPED)
end
local fields = {}
if paymentId ~= '' then fields = payments({ paymentId }) end
table.insert(s, #fields)
for _, field in ipairs(fields) do table.insert(s, field) end
if created then
  -- Beyond the most accounts kept, idle ones go (never an active one).
  local most = tonumber(maxAccounts)
  local gone = forgetIdle(serverTime(now) - tonumber(idleMs), function()
    return redis.call('ZCARD', prefix .. 'used') <= most
  end, MAX_FORGOTTEN_PER_CALL)
  for _, held in ipairs(gone) do table.insert(s, held) end
end
return s
