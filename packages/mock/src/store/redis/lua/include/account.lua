-- The account a script works on. Every script gets, by name (the generated header):
-- base, the account's hash key (`<prefix>a:<hash>`, KEYS[1]); prefix (KEYS[2]); h, the account
-- hash; generation, the one the caller's handle was opened at ('' when it has none). A write
-- whose generation is no longer the account's (it was reset or released since) changes nothing.
-- Sizes follow the memory store's; those of data made by the service are computed by the caller
-- (JavaScript string lengths) and stored with it, so what an eviction frees is exactly what was
-- counted.
local totals = prefix .. 'totals'
local function k(part) return base .. ':' .. part end
local function num(v) return tonumber(v) or 0 end
local function live() return redis.call('HGET', base, 'gen') == generation end
local function addBytes(delta)
  if delta ~= 0 then
    redis.call('HINCRBY', base, 'b', delta)
    redis.call('HINCRBY', totals, 'b', delta)
  end
end
local function overBudget(budget) return num(redis.call('HGET', base, 'b')) > budget end
-- The time given (ms), or the server's TIME when none is ('').
local function serverTime(given)
  if given and given ~= '' then return tonumber(given) end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
-- A write through a handle whose account was released (deleted because it held nothing) while
-- the handle's request was in flight recreates it, empty, under the handle's generation, exactly
-- as it was released, and used now (the server's TIME): idle, it goes as any other account (not
-- in 'used', no idle forgetting or maxAccounts would ever reach it). An account reset or
-- forgotten leaves a tombstone of its generation for a minute: writes of that generation change
-- nothing.
local function writable()
  local gen = redis.call('HGET', base, 'gen')
  if gen then return gen == generation end
  if generation == '' or redis.call('GET', k('reset')) == generation then return false end
  redis.call('HSET', base, 'gen', generation, 'off', '0', 'f', '{}', 'b', '0')
  redis.call('ZADD', prefix .. 'used', serverTime(''), h)
  addBytes(ACCOUNT_BYTES)
  return true
end
local function first(key)
  local r = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if r[2] then return tonumber(r[2]) end
  return nil
end
-- Puts the account in the fleet's due index at its earliest settlement, attempt or lease end.
local function reindex()
  local off = num(redis.call('HGET', base, 'off')) * 1000
  local best = first(k('s'))
  if best then best = best - off end
  local q = first(k('q'))
  if q and (not best or q - off < best) then best = q - off end
  local l = first(k('ql'))
  if l and (not best or l < best) then best = l end
  if best then redis.call('ZADD', prefix .. 'due', best, h) else redis.call('ZREM', prefix .. 'due', h) end
end
-- A stored 'bytes|value': its bytes, then its value.
local function sized(v) local i = string.find(v, '|', 1, true); return tonumber(string.sub(v, 1, i - 1)), string.sub(v, i + 1) end
