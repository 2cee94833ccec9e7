-- A page newest first: has_more, then five fields a payment; nil when the cursor is not held.
--@include payments
--@reply array?
--@arg limit number the most payments on the page
--@arg startingAfter string the id the page starts after, or ''
local most = tonumber(limit)
local ids
if startingAfter ~= '' then
  local score = redis.call('ZSCORE', k('o'), startingAfter)
  if not score then return false end
  ids = redis.call('ZREVRANGEBYSCORE', k('o'), '(' .. score, '-inf', 'LIMIT', 0, most + 1)
else
  ids = redis.call('ZREVRANGE', k('o'), 0, most)
end
local more = 0
if #ids > most then more = 1; table.remove(ids) end
local out = payments(ids)
table.insert(out, 1, more)
return out
