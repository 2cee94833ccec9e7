-- The account's payments. A payment is five fields of the hash 'p': its JSON under its id, then
-- under the id and a NUL its meta (m), later timeline steps (c), bytes (b) and sequence (s);
-- 'o' orders them by sequence, 's' holds the PENDING ones by settlement time.
--@include account
local function f(id, part) return id .. '\0' .. part end
local function dropPayment(id)
  local b = redis.call('HGET', k('p'), f(id, 'b'))
  if not b then return end
  redis.call('HDEL', k('p'), id, f(id, 'm'), f(id, 'c'), f(id, 'b'), f(id, 's'))
  redis.call('ZREM', k('o'), id)
  redis.call('ZREM', k('s'), id)
  redis.call('HINCRBY', totals, 'p', -1)
  addBytes(-tonumber(b))
end
-- The payments held of ids, five fields each: id, json, meta, changes ('' for none), sequence.
local function payments(ids)
  local out = {}
  for _, id in ipairs(ids) do
    local v = redis.call('HMGET', k('p'), id, f(id, 'm'), f(id, 'c'), f(id, 's'))
    if v[1] then
      table.insert(out, id)
      table.insert(out, v[1])
      table.insert(out, v[2])
      table.insert(out, v[3] or '')
      table.insert(out, v[4])
    end
  end
  return out
end
