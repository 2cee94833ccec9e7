-- The account's webhook state: events kept ('v', ordered by 'vo'), the delivery log ('l'), and
-- the attempts scheduled ('q', due time; 'qd', 'dueAt|json') or leased ('ql', lease end on the
-- server's clock; 'qo', the instance holding it). 'wb' counts their bytes, 'qb' those scheduled.
--@include account
local function webhookBytes(delta) redis.call('HINCRBY', base, 'wb', delta); addBytes(delta) end
local function forgetOldest(list, map)
  local id = redis.call('LPOP', list)
  if not id then return end
  if map then
    local v = redis.call('HGET', map, id)
    redis.call('HDEL', map, id)
    if v then webhookBytes(-(sized(v))) end
  else
    webhookBytes(-(sized(id)))
  end
end
-- Schedules an attempt due at dueAt: its sequence, or -1 (nothing scheduled) when the key has
-- too many waiting or the waiting ones' bytes would pass budget.
local function schedule(dueAt, json, budget)
  if redis.call('ZCARD', k('q')) >= MAX_QUEUED_PER_KEY then return -1 end
  if num(redis.call('HGET', base, 'qb')) + QUEUED_BYTES > tonumber(budget) then return -1 end
  local seq = redis.call('HINCRBY', base, 'qseq', 1) - 1
  local member = string.format('%012d', seq)
  redis.call('ZADD', k('q'), dueAt, member)
  redis.call('HSET', k('qd'), member, dueAt .. '|' .. json)
  redis.call('HINCRBY', base, 'qb', QUEUED_BYTES)
  redis.call('HSET', base, 'hooks', '1')
  webhookBytes(QUEUED_BYTES)
  return seq
end
-- Takes a scheduled attempt off the schedule (leased or made): its bytes go.
local function unschedule(member)
  if redis.call('ZREM', k('q'), member) == 1 then
    redis.call('HINCRBY', base, 'qb', -QUEUED_BYTES)
    webhookBytes(-QUEUED_BYTES)
  end
end
-- Puts back on the schedule, at their due time, the attempts whose lease ended at serverNow
-- (their instance died while sending them).
local function releaseLeases(serverNow)
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', k('ql'), '-inf', serverNow)) do
    redis.call('ZREM', k('ql'), member)
    redis.call('HDEL', k('qo'), member)
    local d = redis.call('HGET', k('qd'), member)
    if d then
      redis.call('ZADD', k('q'), sized(d), member)
      redis.call('HINCRBY', base, 'qb', QUEUED_BYTES)
      webhookBytes(QUEUED_BYTES)
    end
  end
end
local function trimWebhooks(max)
  while num(redis.call('HGET', base, 'wb')) > max do
    local events, log = redis.call('LLEN', k('vo')), redis.call('LLEN', k('l'))
    if events <= 1 and log <= 1 then break end
    if events >= log then forgetOldest(k('vo'), k('v')) else forgetOldest(k('l'), nil) end
  end
end
-- The values of a hash named in a list's order (those still held).
local function inOrder(list, map)
  local out = {}
  for _, id in ipairs(redis.call('LRANGE', list, 0, -1)) do
    local v = redis.call('HGET', map, id)
    if v then table.insert(out, v) end
  end
  return out
end
