-- Deleting whole accounts: one reset, or idle ones forgotten to make room.
--@include account
local function deleteAccount(tombstone)
  if tombstone then redis.call('SET', k('reset'), redis.call('HGET', base, 'gen'), 'PX', TOMBSTONE_MS) end
  local count = redis.call('ZCARD', k('o'))
  local records = redis.call('HKEYS', k('ib'))
  for _, key in ipairs(records) do redis.call('ZREM', prefix .. 'rx', h .. ':' .. key) end
  redis.call('HINCRBY', totals, 'p', 0 - count)
  redis.call('HINCRBY', totals, 'r', 0 - #records)
  redis.call('HINCRBY', totals, 'b', 0 - num(redis.call('HGET', base, 'b')))
  redis.call('ZREM', prefix .. 'due', h)
  redis.call('ZREM', prefix .. 'used', h)
  local keys = { base }
  for _, part in ipairs(ACCOUNT_PARTS) do table.insert(keys, k(part)) end
  redis.call('UNLINK', unpack(keys))
  return count
end
-- Forgets idle accounts (used at idleBefore or earlier), least recently used first, never the
-- account of this call, until enough() or `most` are gone: the bytes each held.
local function forgetIdle(idleBefore, enough, most)
  local mine, mineBase = h, base
  local out = {}
  for _, idle in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 'used', '-inf', idleBefore, 'LIMIT', 0, most + 1)) do
    if enough() or #out >= most then break end
    if idle ~= mine then
      h = idle
      base = prefix .. 'a:' .. idle
      table.insert(out, num(redis.call('HGET', base, 'b')))
      deleteAccount(true)
    end
  end
  h, base = mine, mineBase
  return out
end
