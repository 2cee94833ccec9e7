// The store's Lua scripts: each atomic call of the seam is one script, run by the server as one step.
import { ACCOUNT_BYTES, QUEUED_BYTES } from '../byte-sizes.js';
import {
  MAX_EVENTS_PER_KEY,
  MAX_LOG_ENTRIES_PER_KEY,
  MAX_QUEUED_PER_KEY,
  MAX_RECORDED_REQUESTS,
  MAX_REQUEST_LOG_BYTES,
} from '../limits.js';
import { ACCOUNT_PARTS } from './keys.js';

/** How long a reset or forgotten account's generation is remembered, so late writes change nothing (ms). */
export const TOMBSTONE_MS = 60_000;

/*
 * Every script takes KEYS[1] = the account's hash key (`<prefix>a:<hash>`) and KEYS[2] = the
 * prefix, then ARGV[1] = the account hash and ARGV[2] = the generation the caller's handle was
 * opened at. A write whose generation is no longer the account's (it was reset or released since)
 * changes nothing and answers 'CLOSED'. Sizes follow store/byte-sizes.ts; those of data made by the
 * service are computed by the caller (JavaScript string lengths) and stored with it, so what an
 * eviction frees is exactly what was counted.
 */
const PRELUDE = `
local base, prefix, h = KEYS[1], KEYS[2], ARGV[1]
local totals = prefix .. 'totals'
local function k(part) return base .. ':' .. part end
local function num(v) return tonumber(v) or 0 end
local function live() return redis.call('HGET', base, 'gen') == ARGV[2] end
local function addBytes(delta)
  if delta ~= 0 then
    redis.call('HINCRBY', base, 'b', delta)
    redis.call('HINCRBY', totals, 'b', delta)
  end
end
local function serverTime(given)
  if given and given ~= '' then return tonumber(given) end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
-- A write through a handle whose account was released (deleted because it held nothing) while
-- the handle's request was in flight recreates it, empty, under the handle's generation, exactly
-- as it was released. An account reset or forgotten leaves a tombstone of its generation for a
-- minute: writes of that generation change nothing.
local function writable()
  local gen = redis.call('HGET', base, 'gen')
  if gen then return gen == ARGV[2] end
  if ARGV[2] == '' or redis.call('GET', k('reset')) == ARGV[2] then return false end
  redis.call('HSET', base, 'gen', ARGV[2], 'off', '0', 'f', '{}', 'b', '0')
  addBytes(${ACCOUNT_BYTES})
  return true
end
local function first(key)
  local r = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  if r[2] then return tonumber(r[2]) end
  return nil
end
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
local function sized(v) local i = string.find(v, '|', 1, true); return tonumber(string.sub(v, 1, i - 1)), string.sub(v, i + 1) end
local function dropRecord(key)
  local b = redis.call('HGET', k('ib'), key)
  if not b then return end
  redis.call('HDEL', k('i'), key)
  redis.call('HDEL', k('ib'), key)
  redis.call('HDEL', k('io'), key)
  redis.call('ZREM', k('ie'), key)
  redis.call('ZREM', prefix .. 'rx', h .. ':' .. key)
  redis.call('HINCRBY', totals, 'r', -1)
  addBytes(-tonumber(b))
end
local function expireRecords(now)
  for _, key in ipairs(redis.call('ZRANGEBYSCORE', k('ie'), '-inf', now)) do dropRecord(key) end
end
-- A payment is four fields of the hash 'p': its JSON under its id, then under the id and a NUL
-- its meta (m), later timeline steps (c), bytes (b) and sequence (s).
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
local function overBudget(budget) return num(redis.call('HGET', base, 'b')) > budget end
local function trimRecords(keep, maxRecords, budget)
  while redis.call('HLEN', k('i')) > maxRecords or overBudget(budget) do
    local oldest = redis.call('ZRANGE', k('ie'), 0, 0)[1]
    if not oldest or oldest == keep then break end
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
  redis.call('ZADD', prefix .. 'rx', serverExpiresAt, h .. ':' .. key)
  redis.call('HINCRBY', totals, 'r', 1)
  addBytes(tonumber(bytes))
  trimRecords(key, tonumber(maxRecords), tonumber(budget))
  return false
end
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
  if redis.call('ZCARD', k('q')) >= ${MAX_QUEUED_PER_KEY} then return -1 end
  if num(redis.call('HGET', base, 'qb')) + ${QUEUED_BYTES} > tonumber(budget) then return -1 end
  local seq = redis.call('HINCRBY', base, 'qseq', 1) - 1
  local member = string.format('%012d', seq)
  redis.call('ZADD', k('q'), dueAt, member)
  redis.call('HSET', k('qd'), member, dueAt .. '|' .. json)
  redis.call('HINCRBY', base, 'qb', ${QUEUED_BYTES})
  redis.call('HSET', base, 'hooks', '1')
  webhookBytes(${QUEUED_BYTES})
  return seq
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
      redis.call('HINCRBY', base, 'qb', ${QUEUED_BYTES})
      webhookBytes(${QUEUED_BYTES})
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
local function deleteAccount(tombstone)
  if tombstone then redis.call('SET', k('reset'), redis.call('HGET', base, 'gen'), 'PX', ${TOMBSTONE_MS}) end
  local count = redis.call('ZCARD', k('o'))
  local records = redis.call('HKEYS', k('ib'))
  for _, key in ipairs(records) do redis.call('ZREM', prefix .. 'rx', h .. ':' .. key) end
  redis.call('HINCRBY', totals, 'p', 0 - count)
  redis.call('HINCRBY', totals, 'r', 0 - #records)
  redis.call('HINCRBY', totals, 'b', 0 - num(redis.call('HGET', base, 'b')))
  redis.call('ZREM', prefix .. 'due', h)
  redis.call('ZREM', prefix .. 'used', h)
  redis.call('UNLINK', base${ACCOUNT_PARTS.map((part) => `, k('${part}')`).join('')})
  return count
end
-- Forgets idle accounts (used at idleBefore or earlier), least recently used first, never the
-- account of this call, until enough() or \`most\` are gone: the bytes each held.
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
`;

/**
 * The account's state a handle keeps: generation, offset, faults, webhooks used, endpoints;
 * whether it keeps data for good (a payment or a logged request: neither goes while its
 * generation lives, so releasing it would do nothing), and when its next PENDING payment
 * settles (key's clock; '' when none does).
 */
const ACCOUNT_STATE = `
local function state()
  local s = redis.call('HMGET', base, 'gen', 'off', 'f', 'hooks')
  if not s[1] then return false end
  -- Used now (ARGV[2]: the server's time, or '' for the store's): idle keys go first when full.
  redis.call('ZADD', prefix .. 'used', serverTime(ARGV[2]), h)
  local kept = 0
  if redis.call('ZCARD', k('o')) > 0 or redis.call('LLEN', k('r')) > 0 then kept = 1 end
  local settles = first(k('s'))
  if settles then settles = tostring(settles) else settles = '' end
  return { s[1], s[2] or '0', s[3] or '{}', s[4] or '0', redis.call('HLEN', k('e')), kept, settles }
end
`;

const bodies = {
  /**
   * The account's state, or nil when it holds nothing; with ARGV[3] (a payment id), the
   * payment's five fields after it (none when not held). ARGV: hash, now or '', [id].
   */
  psm_find: `${ACCOUNT_STATE}
local s = state()
if s and ARGV[3] and ARGV[3] ~= '' then
  for _, field in ipairs(payments({ ARGV[3] })) do table.insert(s, field) end
end
return s`,

  /**
   * The account's state, created empty (a new generation) when absent. Refuses a prefix of
   * another format version; marks a fresh one as ours. With a claim (ARGV[7..17]: the
   * arguments of psm_claim_key after the generation, then the clock offset they were computed
   * with), also claims the Idempotency-Key, if the key's offset is still that one and no fault
   * is armed: after the state comes false (claimed), the record held, 'SKIPPED', or 'NONE'
   * (no claim asked). Then how many fields of the payment ARGV[6] follow (0 or 5: none asked
   * or not held), and those fields. A new account beyond maxAccounts forgets idle ones: the
   * bytes each held follow. ARGV: hash, now or '', format, maxAccounts, idleMs, payment id or
   * '', [claim].
   */
  psm_open: `${ACCOUNT_STATE}
local format = redis.call('GET', prefix .. 'format')
if not format then redis.call('SET', prefix .. 'format', ARGV[3])
elseif format ~= ARGV[3] then
  return redis.error_reply('PSM_FORMAT the keys under "' .. prefix .. '" are of store format ' .. format .. ', not ' .. ARGV[3] .. ': use another prefix, or delete them')
end
local created = false
if not redis.call('HGET', base, 'gen') then
  created = true
  -- Unique across restarts of a server without persistence: the time, then a counter.
  local time = redis.call('TIME')
  local gen = time[1] .. time[2] .. '-' .. redis.call('INCR', prefix .. 'gen')
  redis.call('HSET', base, 'gen', gen, 'off', '0', 'f', '{}', 'b', '0')
  addBytes(${ACCOUNT_BYTES})
end
local s = state()
if not ARGV[7] then
  table.insert(s, 'NONE')
elseif s[2] == ARGV[17] and s[3] == '{}' then
  table.insert(s, claim(ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13], ARGV[14], ARGV[15], ARGV[16]))
else
  table.insert(s, 'SKIPPED')
end
local fields = {}
if ARGV[6] ~= '' then fields = payments({ ARGV[6] }) end
table.insert(s, #fields)
for _, field in ipairs(fields) do table.insert(s, field) end
if created then
  -- Beyond the most accounts kept, idle ones go (never an active one).
  local most = tonumber(ARGV[4])
  local gone = forgetIdle(serverTime(ARGV[2]) - tonumber(ARGV[5]), function()
    return redis.call('ZCARD', prefix .. 'used') <= most
  end, 100)
  for _, bytes in ipairs(gone) do table.insert(s, bytes) end
end
return s`,

  /** One payment: id, json, meta, changes, sequence. ARGV: hash, '', id. */
  psm_payment: 'return payments({ ARGV[3] })',

  /**
   * A page newest first: has_more, then five fields a payment; false when the cursor is not held.
   * ARGV: hash, '', limit, startingAfter or ''.
   */
  psm_list: `
local limit = tonumber(ARGV[3])
local ids
if ARGV[4] ~= '' then
  local score = redis.call('ZSCORE', k('o'), ARGV[4])
  if not score then return false end
  ids = redis.call('ZREVRANGEBYSCORE', k('o'), '(' .. score, '-inf', 'LIMIT', 0, limit + 1)
else
  ids = redis.call('ZREVRANGE', k('o'), 0, limit)
end
local more = 0
if #ids > limit then more = 1; table.remove(ids) end
local out = payments(ids)
table.insert(out, 1, more)
return out`,

  /** Every payment, oldest first. ARGV: hash, ''. */
  psm_payments: `return payments(redis.call('ZRANGE', k('o'), 0, -1))`,

  /**
   * Stores a new payment as the newest, evicts the key's oldest past its cap or budget, and
   * completes its idempotency record when one is given (only the in-flight record it was
   * claimed as). ARGV: hash, gen, id, json, meta, settlesAt or '', bytes, maxPaymentsPerKey,
   * keyBudget, maxRecordsPerKey, changes or '', [key, inFlightJson, completedJson, responseBytes].
   * Answers { sequence, held (1/0) }, or 'TAKEN' (nothing made) when another request holds the
   * key in flight: it was taken over while this instance was presumed dead (no heartbeat).
   */
  psm_create: `
if not writable() then return 'CLOSED' end
if ARGV[12] and redis.call('HGET', k('io'), ARGV[12]) and redis.call('HGET', k('i'), ARGV[12]) ~= ARGV[13] then
  return 'TAKEN'
end
local id, budget = ARGV[3], tonumber(ARGV[9])
local seq = redis.call('HINCRBY', base, 'seq', 1) - 1
redis.call('ZADD', k('o'), seq, id)
if ARGV[11] ~= '' then
  redis.call('HSET', k('p'), id, ARGV[4], f(id, 'm'), ARGV[5], f(id, 'b'), ARGV[7], f(id, 's'), seq, f(id, 'c'), ARGV[11])
else
  redis.call('HSET', k('p'), id, ARGV[4], f(id, 'm'), ARGV[5], f(id, 'b'), ARGV[7], f(id, 's'), seq)
end
redis.call('HINCRBY', totals, 'p', 1)
addBytes(tonumber(ARGV[7]))
if ARGV[6] ~= '' then redis.call('ZADD', k('s'), ARGV[6], id) end
local max = tonumber(ARGV[8])
local dropped = false
while true do
  local count = redis.call('ZCARD', k('o'))
  if not (count > max or (count > 1 and overBudget(budget))) then break end
  dropPayment(redis.call('ZRANGE', k('o'), 0, 0)[1])
  dropped = true
end
local maxRecords = tonumber(ARGV[10])
trimRecords(nil, maxRecords, budget)
if ARGV[12] and redis.call('HGET', k('i'), ARGV[12]) == ARGV[13] then
  redis.call('HSET', k('i'), ARGV[12], ARGV[14])
  redis.call('HDEL', k('io'), ARGV[12])
  redis.call('HINCRBY', k('ib'), ARGV[12], ARGV[15])
  addBytes(tonumber(ARGV[15]))
  trimRecords(ARGV[12], maxRecords, budget)
end
-- An evicted payment may have been the next to settle.
if ARGV[6] ~= '' or dropped then reindex() end
local held = 0
if redis.call('HEXISTS', k('p'), id) == 1 then held = 1 end
return { seq, held }`,

  /**
   * Compare-and-set: the payment's new JSON and one more timeline step, only if its JSON is still
   * the one read. ARGV: hash, gen, id, expectedJson, newJson, stepJson, bytes without token and
   * timeline, maxSteps after the creation; then, for an idempotent change, key, inFlightJson,
   * completedJson, responseBytes, maxRecordsPerKey, keyBudget (the record completed with it).
   * Answers 1 (done) or 0.
   */
  psm_transition: `
if not live() then return 0 end
local id = ARGV[3]
local v = redis.call('HMGET', k('p'), id, f(id, 'c'), f(id, 'm'), f(id, 'b'))
if v[1] ~= ARGV[4] then return 0 end
local changes = v[2]
if changes then changes = string.sub(changes, 1, -2) .. ',' .. ARGV[6] .. ']' else changes = '[' .. ARGV[6] .. ']' end
local _, commas = string.gsub(changes, '},{', '')
for _ = 1, commas + 1 - tonumber(ARGV[8]) do
  changes = '[' .. string.sub(changes, string.find(changes, '},{', 1, true) + 2)
end
local meta = cjson.decode(v[3])
local token = meta[1]
local bytes = tonumber(ARGV[7]) + 2 * #token + 2 * #changes
addBytes(bytes - num(v[4]))
redis.call('HSET', k('p'), id, ARGV[5], f(id, 'c'), changes, f(id, 'b'), bytes)
-- A payment that left PENDING (settled) settles no more: its meta's settlement time goes, as a
-- reader's check of the stored payment requires (settles_at only on a PENDING payment).
if meta[2] ~= cjson.null and cjson.decode(ARGV[5]).status ~= 'PENDING' then
  meta[2] = cjson.null
  redis.call('HSET', k('p'), f(id, 'm'), cjson.encode(meta))
end
-- The answer an Idempotency-Key replays, completed with the change (if its record is still ours).
if ARGV[9] and redis.call('HGET', k('i'), ARGV[9]) == ARGV[10] then
  redis.call('HSET', k('i'), ARGV[9], ARGV[11])
  redis.call('HDEL', k('io'), ARGV[9])
  redis.call('HINCRBY', k('ib'), ARGV[9], ARGV[12])
  addBytes(tonumber(ARGV[12]))
  trimRecords(ARGV[9], tonumber(ARGV[13]), tonumber(ARGV[14]))
end
return 1`,

  /** Takes the payments due to settle off the schedule (one caller gets each). ARGV: hash, gen, accountNow. */
  psm_settle: `
if not live() then return {} end
local ids = redis.call('ZRANGEBYSCORE', k('s'), '-inf', ARGV[3])
if #ids == 0 then
  reindex() -- the index may have named a payment evicted since
  return {}
end
for _, id in ipairs(ids) do redis.call('ZREM', k('s'), id) end
reindex()
return payments(ids)`,

  /**
   * Set-if-absent of an Idempotency-Key's in-flight record, after expiring the key's due
   * records: false when stored, else the record held (one in flight for an instance that
   * stopped beating is dropped first). ARGV: hash, gen, key, json, bytes, accountNow, expiresAt,
   * serverExpiresAt, maxRecordsPerKey, keyBudget, owner, serverNow or ''.
   */
  psm_claim_key: `
if not writable() then return 'CLOSED' end
return claim(ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8], ARGV[9], ARGV[10], ARGV[11], ARGV[12])`,

  /**
   * Stores the first answer of an in-flight record, if the record held is still that one.
   * ARGV: hash, gen, key, inFlightJson, completedJson, responseBytes, maxRecordsPerKey, keyBudget.
   */
  psm_complete_key: `
if not live() or redis.call('HGET', k('i'), ARGV[3]) ~= ARGV[4] then return 0 end
redis.call('HSET', k('i'), ARGV[3], ARGV[5])
redis.call('HDEL', k('io'), ARGV[3])
redis.call('HINCRBY', k('ib'), ARGV[3], ARGV[6])
addBytes(tonumber(ARGV[6]))
trimRecords(ARGV[3], tonumber(ARGV[7]), tonumber(ARGV[8]))
return 1`,

  /** Forgets a record if it is still the one held. ARGV: hash, gen, key, json. */
  psm_forget_key: `
if live() and redis.call('HGET', k('i'), ARGV[3]) == ARGV[4] then dropRecord(ARGV[3]) end
return 1`,

  /** Drops the records expired on the key's clock. ARGV: hash, gen, accountNow. */
  psm_expire_keys: 'if live() then expireRecords(ARGV[3]) end return 1',

  /** Every record, oldest first. ARGV: hash, ''. */
  psm_keys: `
local out = {}
for _, key in ipairs(redis.call('ZRANGE', k('ie'), 0, -1)) do
  table.insert(out, redis.call('HGET', k('i'), key))
end
return out`,

  /**
   * Fleet-wide: the instance ARGV[3] is alive until ARGV[1] (or the server's TIME, if '') +
   * ARGV[2] ms; instances whose beat ended are forgotten. ARGV[2] '0': it stopped (forgotten at
   * once). KEYS[1] is unused.
   */
  psm_beat: `
local now = serverTime(ARGV[1])
redis.call('ZREMRANGEBYSCORE', prefix .. 'alive', '-inf', '(' .. now)
if ARGV[2] == '0' then redis.call('ZREM', prefix .. 'alive', ARGV[3]) return 0 end
redis.call('ZADD', prefix .. 'alive', now + tonumber(ARGV[2]), ARGV[3])
return 1`,

  /**
   * Fleet-wide: drops up to ARGV[2] records expired on the server's clock (ARGV[1]) in any account.
   * KEYS[1] is unused (''). Answers how many went.
   */
  psm_sweep: `
local members = redis.call('ZRANGEBYSCORE', prefix .. 'rx', '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[2]))
for _, member in ipairs(members) do
  local colon = string.find(member, ':', 1, true)
  h = string.sub(member, 1, colon - 1)
  base = prefix .. 'a:' .. h
  local key = string.sub(member, colon + 1)
  if redis.call('HEXISTS', k('ib'), key) == 1 then dropRecord(key) else redis.call('ZREM', prefix .. 'rx', member) end
end
return #members`,

  /**
   * Whether the sandbox has room (byte budget, total caps), after forgetting idle accounts
   * (unused for ARGV[6] ms or more), least recently used first, if need be: { 1 or 0, then
   * the bytes each forgotten account held }. KEYS[1] is unused. ARGV: '', now or '',
   * memoryBudgetBytes, maxPaymentsTotal, maxRecordsTotal, idleMs, most accounts forgotten.
   */
  psm_admit: `
local function full()
  local t = redis.call('HMGET', totals, 'b', 'p', 'r')
  return num(t[1]) >= tonumber(ARGV[3]) or num(t[2]) >= tonumber(ARGV[4]) or num(t[3]) >= tonumber(ARGV[5])
end
if not full() then return { 1 } end
local out = forgetIdle(serverTime(ARGV[2]) - tonumber(ARGV[6]), function() return not full() end, tonumber(ARGV[7]))
if full() then table.insert(out, 1, 0) else table.insert(out, 1, 1) end
return out`,

  /** Deletes everything of the account; answers how many payments it held. ARGV: hash. */
  psm_reset: `
if not redis.call('HGET', base, 'gen') then return 0 end
return deleteAccount(true)`,

  /** Deletes the account if it holds nothing worth keeping. ARGV: hash, gen. Answers 1 when deleted. */
  psm_release: `
if not live() then return 0 end
local s = redis.call('HMGET', base, 'off', 'f', 'hooks')
if (s[1] or '0') ~= '0' or (s[2] or '{}') ~= '{}' or s[3] then return 0 end
if redis.call('ZCARD', k('o')) > 0 or redis.call('HLEN', k('i')) > 0 or redis.call('LLEN', k('r')) > 0 then return 0 end
deleteAccount(false)
return 1`,

  /** Sets the clock offset (seconds) or the faults (JSON). ARGV: hash, gen, 'off' or 'f', value. */
  psm_set: `
if not writable() then return 0 end
redis.call('HSET', base, ARGV[3], ARGV[4])
if ARGV[3] == 'off' then reindex() end
return 1`,

  /**
   * Consumes one armed 'fail_next' or 'drop_after_commit': { the fault as it was, faults now },
   * or false when none is armed. ARGV: hash, gen, which.
   */
  psm_consume_fault: `
if not live() then return false end
local faults = cjson.decode(redis.call('HGET', base, 'f') or '{}')
local fault = faults[ARGV[3]]
if type(fault) ~= 'table' then return false end
local taken = cjson.encode(fault)
fault.count = (tonumber(fault.count) or 0) - 1
if fault.count <= 0 then faults[ARGV[3]] = nil end
local now = '{}'
if next(faults) then now = cjson.encode(faults) end
redis.call('HSET', base, 'f', now)
return { taken, now }`,

  /** Records a request as the newest (bounded in count and bytes). ARGV: hash, gen, bytes, json. */
  psm_request: `
if not writable() then return 0 end
redis.call('RPUSH', k('r'), ARGV[3] .. '|' .. ARGV[4])
redis.call('HINCRBY', base, 'rb', ARGV[3])
addBytes(tonumber(ARGV[3]))
while true do
  local count = redis.call('LLEN', k('r'))
  if not (count > ${MAX_RECORDED_REQUESTS} or (count > 1 and num(redis.call('HGET', base, 'rb')) > ${MAX_REQUEST_LOG_BYTES})) then break end
  local bytes = sized(redis.call('LPOP', k('r')))
  redis.call('HINCRBY', base, 'rb', -bytes)
  addBytes(-bytes)
end
return 1`,

  /**
   * Registers or stores an endpoint (only one still held when ARGV[5] is '1'). ARGV: hash, gen,
   * id, json, onlyIfHeld. Answers the endpoint count, or -1 when nothing was stored.
   */
  psm_endpoint: `
if not writable() then return -1 end
local held = redis.call('HEXISTS', k('e'), ARGV[3]) == 1
if ARGV[5] == '1' and not held then return -1 end
if not held then redis.call('RPUSH', k('eo'), ARGV[3]) end
redis.call('HSET', k('e'), ARGV[3], ARGV[4])
redis.call('HSET', base, 'hooks', '1')
return redis.call('HLEN', k('e'))`,

  /** Deletes an endpoint. ARGV: hash, gen, id. Answers 1 when there was one. */
  psm_endpoint_delete: `
if not live() then return 0 end
if redis.call('HDEL', k('e'), ARGV[3]) == 0 then return 0 end
redis.call('LREM', k('eo'), 0, ARGV[3])
return 1`,

  /** The endpoints, oldest first. ARGV: hash, ''. */
  psm_endpoints: `
local out = {}
for _, id in ipairs(redis.call('LRANGE', k('eo'), 0, -1)) do
  local v = redis.call('HGET', k('e'), id)
  if v then table.insert(out, v) end
end
return out`,

  /** Keeps an event for redelivery. ARGV: hash, gen, id, bytes, json, webhook budget. */
  psm_event: `
if not writable() then return 0 end
local old = redis.call('HGET', k('v'), ARGV[3])
if old then webhookBytes(-(sized(old))) else redis.call('RPUSH', k('vo'), ARGV[3]) end
redis.call('HSET', k('v'), ARGV[3], ARGV[4] .. '|' .. ARGV[5])
redis.call('HSET', base, 'hooks', '1')
webhookBytes(tonumber(ARGV[4]))
if redis.call('LLEN', k('vo')) > ${MAX_EVENTS_PER_KEY} then forgetOldest(k('vo'), k('v')) end
trimWebhooks(tonumber(ARGV[6]))
return 1`,

  /** The events kept, oldest first (each 'bytes|json'). ARGV: hash, ''. */
  psm_events: `
local out = {}
for _, id in ipairs(redis.call('LRANGE', k('vo'), 0, -1)) do
  local v = redis.call('HGET', k('v'), id)
  if v then table.insert(out, v) end
end
return out`,

  /** Logs one delivery attempt. ARGV: hash, gen, bytes, json, webhook budget. */
  psm_log: `
if not writable() then return 0 end
redis.call('RPUSH', k('l'), ARGV[3] .. '|' .. ARGV[4])
redis.call('HSET', base, 'hooks', '1')
webhookBytes(tonumber(ARGV[3]))
if redis.call('LLEN', k('l')) > ${MAX_LOG_ENTRIES_PER_KEY} then forgetOldest(k('l'), nil) end
trimWebhooks(tonumber(ARGV[5]))
return 1`,

  /**
   * Schedules an attempt: its sequence, or -1 (nothing scheduled) when the key has too many
   * waiting. ARGV: hash, gen, dueAt, json, queue budget.
   */
  psm_enqueue: `
if not writable() then return -1 end
local seq = schedule(ARGV[3], ARGV[4], ARGV[5])
if seq >= 0 then reindex() end
return seq`,

  /**
   * Takes the earliest attempt due at ARGV[3] (key's clock) and leases it until ARGV[5] (server's
   * clock), after putting back the attempts whose lease ended at ARGV[4]: { member, 'dueAt|json' }
   * or false. With ARGV[4] '', the server's TIME is the clock and the lease lasts ARGV[6] ms.
   * The lease is the instance's ARGV[7] (renewed by psm_renew while it sends). With ARGV[8], none
   * is taken while that many attempts of the key are leased, by any instance (fair slots per key
   * across the fleet).
   * ARGV: hash, gen, accountNow, serverNow or '', leaseUntil or '', leaseMs, owner, maxLeased or ''.
   */
  psm_claim_attempt: `
if not live() then return false end
local serverNow, leaseUntil = tonumber(ARGV[4]), tonumber(ARGV[5])
if not serverNow then
  -- No clock given: the server's own, the same for every instance of the fleet.
  local time = redis.call('TIME')
  serverNow = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  leaseUntil = serverNow + tonumber(ARGV[6])
end
releaseLeases(serverNow)
local maxLeased = tonumber(ARGV[8])
if maxLeased and redis.call('ZCARD', k('ql')) >= maxLeased then
  reindex()
  return false
end
local member = redis.call('ZRANGEBYSCORE', k('q'), '-inf', ARGV[3], 'LIMIT', 0, 1)[1]
if not member then
  reindex()
  return false
end
redis.call('ZREM', k('q'), member)
redis.call('ZADD', k('ql'), leaseUntil, member)
redis.call('HSET', k('qo'), member, ARGV[7])
redis.call('HINCRBY', base, 'qb', -${QUEUED_BYTES})
webhookBytes(-${QUEUED_BYTES})
reindex()
return { member, redis.call('HGET', k('qd'), member) }`,

  /**
   * When the earliest scheduled attempt is due (key's clock), or false, after putting back the
   * attempts whose lease ended at ARGV[3] (server's clock; '' for its TIME): an attempt leased
   * by a dead instance is due again, for any instance to claim. ARGV: hash, gen, serverNow or ''.
   */
  psm_next_attempt: `
if not live() then return false end
releaseLeases(serverTime(ARGV[3]))
local due = redis.call('ZRANGE', k('q'), 0, 0, 'WITHSCORES')[2]
reindex()
return due or false`,

  /**
   * Marks an attempt as made: forgets it, leased or still scheduled, and schedules its retry in
   * the same step when one is given (an instance that dies after either never leaves the attempt
   * made without its retry). Answers the retry's sequence, or -1 (none given, or too many
   * waiting). ARGV: hash, gen, member, [retry's dueAt, json, queue budget].
   */
  psm_finish_attempt: `
local member = ARGV[3]
if redis.call('ZREM', k('q'), member) == 1 then
  redis.call('HINCRBY', base, 'qb', -${QUEUED_BYTES})
  webhookBytes(-${QUEUED_BYTES})
end
redis.call('ZREM', k('ql'), member)
redis.call('HDEL', k('qo'), member)
redis.call('HDEL', k('qd'), member)
local seq = -1
if ARGV[4] and writable() then seq = schedule(ARGV[4], ARGV[5], ARGV[6]) end
reindex()
return seq`,

  /**
   * Extends the leases the instance ARGV[5] still holds (ARGV[6…]: members) to ARGV[3] + ARGV[4]
   * ms (ARGV[3] '': the server's TIME); answers how many it still held. ARGV: hash, '', now or
   * '', leaseMs, owner, members….
   */
  psm_renew: `
local leaseUntil = serverTime(ARGV[3]) + tonumber(ARGV[4])
local held = 0
for index = 6, #ARGV do
  local member = ARGV[index]
  if redis.call('HGET', k('qo'), member) == ARGV[5] and redis.call('ZSCORE', k('ql'), member) then
    redis.call('ZADD', k('ql'), leaseUntil, member)
    held = held + 1
  end
end
if held > 0 then reindex() end
return held`,

  /** The attempts scheduled (not leased), as { member, 'dueAt|json' } pairs. ARGV: hash, ''. */
  psm_attempts: `
local out = {}
for _, member in ipairs(redis.call('ZRANGE', k('q'), 0, -1)) do
  local d = redis.call('HGET', k('qd'), member)
  if d then table.insert(out, member); table.insert(out, d) end
end
return out`,
} as const;

/** The name of one script. */
export type ScriptName = keyof typeof bodies;

/**
 * Every script's Lua text, by name (each with the shared helpers in front).
 *
 * @example
 * client.defineCommand('psm_find', { numberOfKeys: 2, lua: SCRIPTS.psm_find });
 */
export const SCRIPTS: Readonly<Record<ScriptName, string>> = Object.fromEntries(
  Object.entries(bodies).map(([name, body]) => [name, PRELUDE + body]),
) as Record<ScriptName, string>;
