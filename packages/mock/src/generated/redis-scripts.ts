// Generated from src/store/redis/lua/ by scripts/generate-redis-scripts.mjs: do not edit.
// `pnpm --filter @payment-service/mock generate` rewrites it; `generate:check` fails when it is stale.

/** What a script's reply is at the top: an array, an integer, a string, or nil where allowed. */
export type ReplyShape = 'array' | 'array?' | 'integer' | 'string?' | 'array|string';

/** One script as generated: its Lua (the constants it names still to be rendered in front) and its declaration. */
export interface GeneratedScript {
  readonly reply: ReplyShape;
  /** Its arguments after the account's hash and generation, in ARGV order. */
  readonly args: readonly string[];
  /** The group of arguments after them, given together or not at all. */
  readonly optional?: { readonly name: string; readonly args: readonly string[] };
  /** The last argument: any number of values. */
  readonly rest?: string;
  /** The TypeScript constants it names (UPPER_CASE), rendered in front of it at load. */
  readonly constants: readonly string[];
  /** The includes it runs on, each after those it needs (`GENERATED_INCLUDES`). */
  readonly includes: readonly IncludeName[];
  /** Its arguments bound to their names, then its own code. */
  readonly lua: string;
}

/** The Lua every script starts with: KEYS and the account's hash and generation, by name. */
export const SCRIPT_HEADER = 'local base, prefix, h, generation = KEYS[1], KEYS[2], ARGV[1], ARGV[2]';

/** The includes (lua/include/*.lua), by name: the helpers scripts share. */
export const GENERATED_INCLUDES = {
  account: `-- The account a script works on. Every script gets, by name (the generated header):
-- base, the account's hash key (\`<prefix>a:<hash>\`, KEYS[1]); prefix (KEYS[2]); h, the account
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
`,
  forget: `-- Deleting whole accounts: one reset, or idle ones forgotten to make room.
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
`,
  payments: `-- The account's payments. A payment is five fields of the hash 'p': its JSON under its id, then
-- under the id and a NUL its meta (m), later timeline steps (c), bytes (b) and sequence (s);
-- 'o' orders them by sequence, 's' holds the PENDING ones by settlement time.
local function f(id, part) return id .. '\\0' .. part end
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
`,
  records: `-- The account's Idempotency-Key records: 'i' (key → JSON), 'ib' (bytes), 'io' (the instance
-- holding one in flight), 'ie' (expiry, key's clock), 'ic' (the order they were written in, by the
-- account's counter 'rs') and the fleet's 'rx' (expiry, server's clock).
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
`,
  state: `-- The account's state a handle keeps: generation, offset, faults, webhooks used, endpoints;
-- whether it keeps data for good (a payment or a logged request: neither goes while its
-- generation lives, so releasing it would do nothing), and when its next PENDING payment
-- settles (key's clock; '' when none does). False when the account holds nothing.
local function state(now)
  local s = redis.call('HMGET', base, 'gen', 'off', 'f', 'hooks')
  if not s[1] then return false end
  -- Used now (the server's time, or '' for the store's): idle keys go first when full.
  redis.call('ZADD', prefix .. 'used', serverTime(now), h)
  local kept = 0
  if redis.call('ZCARD', k('o')) > 0 or redis.call('LLEN', k('r')) > 0 then kept = 1 end
  local settles = first(k('s'))
  if settles then settles = tostring(settles) else settles = '' end
  return { s[1], s[2] or '0', s[3] or '{}', s[4] or '0', redis.call('HLEN', k('e')), kept, settles }
end
`,
  webhooks: `-- The account's webhook state: events kept ('v', ordered by 'vo'), the delivery log ('l'), and
-- the attempts scheduled ('q', due time; 'qd', 'dueAt|json') or leased ('ql', lease end on the
-- server's clock; 'qo', the instance holding it). 'wb' counts their bytes, 'qb' those scheduled.
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
`,
} as const;

/** The name of one include. */
export type IncludeName = keyof typeof GENERATED_INCLUDES;

/** The named arguments of each script (after the account's hash and generation). */
export interface ScriptArguments {
  psm_admit: {
    /** the instance's clock (ms), or '' for the server's TIME */
    now: number | '';
    /** the sandbox's byte budget */
    memoryBudget: number;
    /** the most payments in all */
    maxPayments: number;
    /** the most records in all */
    maxRecords: number;
    /** how long an account unused is idle (ms) */
    idleMs: number;
  };
  psm_advance: {
    /** how far to advance the clock (whole seconds, 0 or more) */
    seconds: number;
    /** the most the offset may reach (seconds) */
    max: number;
  };
  psm_attempts: Record<never, never>;
  psm_beat: {
    /** the instance's clock (ms), or '' for the server's TIME */
    now: number | '';
    /** how long it counts as alive */
    aliveMs: number;
    /** the instance's token */
    owner: string;
  };
  psm_claim_attempt: {
    /** the key's clock (ms) */
    accountNow: number;
    /** the instance's clock, or '' for the server's TIME */
    serverNow: number | '';
    /** when the lease ends (with serverNow) */
    leaseUntil: number | '';
    /** how long a lease lasts (without serverNow) */
    leaseMs: number;
    /** the instance's token */
    owner: string;
    /** the most attempts of the key leased at once, or '' for no bound */
    maxLeased: number | '';
  };
  psm_claim_key: {
    /** the Idempotency-Key */
    key: string;
    /** its record, in flight */
    json: string;
    /** the record's bytes */
    bytes: number;
    /** the key's clock (ms) */
    accountNow: number;
    /** when the record expires (key's clock) */
    expiresAt: number;
    /** when it expires (server's clock) */
    serverExpiresAt: number;
    /** the most records a key keeps */
    maxRecords: number;
    /** the key's byte budget */
    budget: number;
    /** the instance taking it */
    owner: string;
    /** the instance's clock, or '' for the server's TIME */
    serverNow: number | '';
  };
  psm_complete_key: {
    /** the Idempotency-Key */
    key: string;
    /** the record as claimed */
    inFlightJson: string;
    /** the record with its answer */
    completedJson: string;
    /** the answer's bytes */
    responseBytes: number;
    /** the most records a key keeps */
    maxRecords: number;
    /** the key's byte budget */
    budget: number;
  };
  psm_consume_fault: {
    /** 'fail_next' or 'drop_after_commit' */
    which: string;
  };
  psm_create: {
    /** the payment's id */
    id: string;
    /** its JSON */
    json: string;
    /** its meta (token, settlement time, first timeline step) */
    meta: string;
    /** when it settles (key's clock), or '' when it does not */
    settlesAt: number | '';
    /** its bytes */
    bytes: number;
    /** the most payments a key keeps */
    maxPayments: number;
    /** the key's byte budget */
    budget: number;
    /** the most records a key keeps */
    maxRecords: number;
    /** its timeline steps after the first, or '' */
    changes: string;
    /** the Idempotency-Key record completed with it */
    completion?: {
      /** the Idempotency-Key */
      key: string;
      /** the record as claimed */
      inFlightJson: string;
      /** the record with its answer */
      completedJson: string;
      /** the answer's bytes */
      responseBytes: number;
    };
  };
  psm_endpoint: {
    /** the endpoint's id */
    id: string;
    /** its record */
    json: string;
    /** '1': only if it is still held (a disabled one), '0': only a new one */
    onlyIfHeld: string;
    /** the most endpoints a key may have */
    max: number;
  };
  psm_endpoint_delete: {
    /** the endpoint's id */
    id: string;
  };
  psm_endpoints: Record<never, never>;
  psm_enqueue: {
    /** when it is due (key's clock) */
    dueAt: number;
    /** the attempt */
    json: string;
    /** the bytes the attempts waiting may hold */
    budget: number;
  };
  psm_event: {
    /** the event's id */
    id: string;
    /** its bytes */
    bytes: number;
    /** its record */
    json: string;
    /** the key's webhook budget */
    budget: number;
  };
  psm_events: Record<never, never>;
  psm_expire_keys: {
    /** the key's clock (ms) */
    accountNow: number;
  };
  psm_find: {
    /** the instance's clock (ms), or '' for the server's TIME */
    now: number | '';
    /** a payment to read with it, or '' */
    paymentId: string;
  };
  psm_finish_attempt: {
    /** the attempt */
    member: string;
    /** the attempt's retry */
    retry?: {
      /** when it is due (key's clock) */
      dueAt: number;
      /** the retry */
      json: string;
      /** the bytes the attempts waiting may hold */
      budget: number;
    };
  };
  psm_forget_key: {
    /** the Idempotency-Key */
    key: string;
    /** the record as held */
    json: string;
  };
  psm_keys: Record<never, never>;
  psm_list: {
    /** the most payments on the page */
    limit: number;
    /** the id the page starts after, or '' */
    startingAfter: string;
  };
  psm_log: {
    /** the entry's bytes */
    bytes: number;
    /** its JSON */
    entry: string;
    /** the key's webhook budget */
    budget: number;
  };
  psm_next_attempt: {
    /** the instance's clock, or '' for the server's TIME */
    serverNow: number | '';
  };
  psm_open: {
    /** the instance's clock (ms), or '' for the server's TIME */
    now: number | '';
    /** the store format version this sandbox writes */
    format: string;
    /** the most accounts kept */
    maxAccounts: number;
    /** how long an account unused is idle (ms) */
    idleMs: number;
    /** a payment to read with it, or '' */
    paymentId: string;
    /** the claim of an Idempotency-Key (as psm_claim_key's), made in the same step */
    claiming?: {
      /** the Idempotency-Key */
      key: string;
      /** its record, in flight */
      json: string;
      /** the record's bytes */
      bytes: number;
      /** the key's clock (ms) */
      accountNow: number;
      /** when the record expires (key's clock) */
      expiresAt: number;
      /** when it expires (server's clock) */
      serverExpiresAt: number;
      /** the most records a key keeps */
      maxRecords: number;
      /** the key's byte budget */
      budget: number;
      /** the instance taking it */
      owner: string;
      /** the instance's clock, or '' for the server's TIME */
      serverNow: number | '';
      /** the key's clock offset (seconds) accountNow was computed with */
      offset: string;
    };
  };
  psm_payment: {
    /** the payment's id */
    id: string;
  };
  psm_payments: Record<never, never>;
  psm_release: Record<never, never>;
  psm_renew: {
    /** the instance's clock (ms), or '' for the server's TIME */
    now: number | '';
    /** how long a lease lasts */
    leaseMs: number;
    /** the instance's token */
    owner: string;
    /** the attempts it holds */
    members: readonly (string)[];
  };
  psm_request: {
    /** the entry's bytes */
    bytes: number;
    /** the entry's JSON */
    entry: string;
  };
  psm_reset: Record<never, never>;
  psm_set: {
    /** 'off' (the clock offset) or 'f' (the faults) */
    field: string;
    /** its new value */
    value: string | number;
  };
  psm_settle: {
    /** the key's clock (ms) */
    accountNow: number;
  };
  psm_sweep: {
    /** the server's clock (ms) */
    serverNow: number;
    /** the most records dropped */
    most: number;
  };
  psm_transition: {
    /** the payment's id */
    id: string;
    /** its JSON as read */
    expectedJson: string;
    /** its new JSON */
    json: string;
    /** the timeline step taken */
    stepJson: string;
    /** its bytes without token and timeline */
    bytes: number;
    /** the Idempotency-Key record completed with it */
    completion?: {
      /** the Idempotency-Key */
      key: string;
      /** the record as claimed */
      inFlightJson: string;
      /** the record with its answer */
      completedJson: string;
      /** the answer's bytes */
      responseBytes: number;
      /** the most records a key keeps */
      maxRecords: number;
      /** the key's byte budget */
      budget: number;
    };
  };
}

/** The store's scripts, by name. */
export const GENERATED_SCRIPTS: { readonly [name in keyof ScriptArguments]: GeneratedScript } = {
  psm_admit: {
    reply: 'array',
    args: ['now', 'memoryBudget', 'maxPayments', 'maxRecords', 'idleMs'],
    includes: ['account', 'forget'],
    constants: ['ACCOUNT_BYTES', 'ACCOUNT_PARTS', 'MAX_FORGOTTEN_PER_CALL', 'TOMBSTONE_MS'],
    lua: `-- arguments
local now = ARGV[3]
local memoryBudget = ARGV[4]
local maxPayments = ARGV[5]
local maxRecords = ARGV[6]
local idleMs = ARGV[7]
-- script
-- Fleet-wide (no account): whether the sandbox has room (byte budget, total caps), after
-- forgetting idle accounts, least recently used first, if need be: { 1 or 0, then the bytes each
-- forgotten account held }.
local function full()
  local t = redis.call('HMGET', totals, 'b', 'p', 'r')
  return num(t[1]) >= tonumber(memoryBudget) or num(t[2]) >= tonumber(maxPayments) or num(t[3]) >= tonumber(maxRecords)
end
if not full() then return { 1 } end
local out = forgetIdle(serverTime(now) - tonumber(idleMs), function() return not full() end, MAX_FORGOTTEN_PER_CALL)
if full() then table.insert(out, 1, 0) else table.insert(out, 1, 1) end
return out
`,
  },
  psm_advance: {
    reply: 'integer',
    args: ['seconds', 'max'],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local seconds = ARGV[3]
local max = ARGV[4]
-- script
-- Adds seconds to the clock offset in one step, unless the sum passes max: answers the sum (stored
-- only when within max), or -1 when the account was reset since (nothing changed).
if not writable() then return -1 end
local offset = num(redis.call('HGET', base, 'off')) + tonumber(seconds)
if offset > tonumber(max) then return offset end
redis.call('HSET', base, 'off', offset)
reindex()
return offset
`,
  },
  psm_attempts: {
    reply: 'array',
    args: [],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
-- script
-- The attempts scheduled (not leased), as { member, 'dueAt|json' } pairs.
local out = {}
for _, member in ipairs(redis.call('ZRANGE', k('q'), 0, -1)) do
  local d = redis.call('HGET', k('qd'), member)
  if d then table.insert(out, member); table.insert(out, d) end
end
return out
`,
  },
  psm_beat: {
    reply: 'integer',
    args: ['now', 'aliveMs', 'owner'],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local now = ARGV[3]
local aliveMs = ARGV[4]
local owner = ARGV[5]
-- script
-- Fleet-wide (no account): the instance owner is alive until now + aliveMs; instances whose beat
-- ended are forgotten. aliveMs 0: it stopped (forgotten at once).
local at = serverTime(now)
redis.call('ZREMRANGEBYSCORE', prefix .. 'alive', '-inf', '(' .. at)
if tonumber(aliveMs) == 0 then redis.call('ZREM', prefix .. 'alive', owner) return 0 end
redis.call('ZADD', prefix .. 'alive', at + tonumber(aliveMs), owner)
return 1
`,
  },
  psm_claim_attempt: {
    reply: 'array?',
    args: ['accountNow', 'serverNow', 'leaseUntil', 'leaseMs', 'owner', 'maxLeased'],
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
local accountNow = ARGV[3]
local serverNow = ARGV[4]
local leaseUntil = ARGV[5]
local leaseMs = ARGV[6]
local owner = ARGV[7]
local maxLeased = ARGV[8]
-- script
-- Takes the earliest attempt due at accountNow and leases it to owner until leaseUntil (server's
-- clock), after putting back the attempts whose lease ended: { member, 'dueAt|json' } or nil.
-- With serverNow '', the server's TIME is the clock and the lease lasts leaseMs. With maxLeased,
-- none is taken while that many attempts of the key are leased, by any instance (fair slots per
-- key across the fleet). The lease is renewed by psm_renew while the instance sends.
if not live() then return false end
local at, untilAt = tonumber(serverNow), tonumber(leaseUntil)
if not at then
  -- No clock given: the server's own, the same for every instance of the fleet.
  at = serverTime('')
  untilAt = at + tonumber(leaseMs)
end
releaseLeases(at)
local most = tonumber(maxLeased)
if most and redis.call('ZCARD', k('ql')) >= most then
  reindex()
  return false
end
local member = redis.call('ZRANGEBYSCORE', k('q'), '-inf', accountNow, 'LIMIT', 0, 1)[1]
if not member then
  reindex()
  return false
end
unschedule(member)
redis.call('ZADD', k('ql'), untilAt, member)
redis.call('HSET', k('qo'), member, owner)
reindex()
return { member, redis.call('HGET', k('qd'), member) }
`,
  },
  psm_claim_key: {
    reply: 'string?',
    args: ['key', 'json', 'bytes', 'accountNow', 'expiresAt', 'serverExpiresAt', 'maxRecords', 'budget', 'owner', 'serverNow'],
    includes: ['account', 'records'],
    constants: ['ACCOUNT_BYTES', 'CLOSED'],
    lua: `-- arguments
local key = ARGV[3]
local json = ARGV[4]
local bytes = ARGV[5]
local accountNow = ARGV[6]
local expiresAt = ARGV[7]
local serverExpiresAt = ARGV[8]
local maxRecords = ARGV[9]
local budget = ARGV[10]
local owner = ARGV[11]
local serverNow = ARGV[12]
-- script
-- Set-if-absent of an Idempotency-Key's in-flight record, after expiring the key's due records:
-- nil when stored, else the record held (one in flight for an instance that stopped beating is
-- dropped first), or CLOSED (the account was reset since).
if not writable() then return CLOSED end
return claim(key, json, bytes, accountNow, expiresAt, serverExpiresAt, maxRecords, budget, owner, serverNow)
`,
  },
  psm_complete_key: {
    reply: 'integer',
    args: ['key', 'inFlightJson', 'completedJson', 'responseBytes', 'maxRecords', 'budget'],
    includes: ['account', 'records'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local key = ARGV[3]
local inFlightJson = ARGV[4]
local completedJson = ARGV[5]
local responseBytes = ARGV[6]
local maxRecords = ARGV[7]
local budget = ARGV[8]
-- script
-- Stores the first answer of an in-flight record, if the record held is still that one: 1, or 0.
if not live() then return 0 end
return complete(key, inFlightJson, completedJson, responseBytes, maxRecords, budget)
`,
  },
  psm_consume_fault: {
    reply: 'array?',
    args: ['which'],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local which = ARGV[3]
-- script
-- Consumes one armed fail_next or drop_after_commit: { the fault as it was, faults now }, or nil
-- when none is armed.
if not live() then return false end
local faults = cjson.decode(redis.call('HGET', base, 'f') or '{}')
local fault = faults[which]
if type(fault) ~= 'table' then return false end
local taken = cjson.encode(fault)
fault.count = (tonumber(fault.count) or 0) - 1
if fault.count <= 0 then faults[which] = nil end
local now = '{}'
if next(faults) then now = cjson.encode(faults) end
redis.call('HSET', base, 'f', now)
return { taken, now }
`,
  },
  psm_create: {
    reply: 'array|string',
    args: ['id', 'json', 'meta', 'settlesAt', 'bytes', 'maxPayments', 'budget', 'maxRecords', 'changes'],
    optional: { name: 'completion', args: ['key', 'inFlightJson', 'completedJson', 'responseBytes'] },
    includes: ['account', 'payments', 'records'],
    constants: ['ACCOUNT_BYTES', 'CLOSED', 'ID_HELD', 'TAKEN'],
    lua: `-- arguments
local id = ARGV[3]
local json = ARGV[4]
local meta = ARGV[5]
local settlesAt = ARGV[6]
local bytes = ARGV[7]
local maxPayments = ARGV[8]
local budget = ARGV[9]
local maxRecords = ARGV[10]
local changes = ARGV[11]
local key = ARGV[12]
local inFlightJson = ARGV[13]
local completedJson = ARGV[14]
local responseBytes = ARGV[15]
local completion = ARGV[12] ~= nil
-- script
-- Stores a new payment as the newest, evicts the key's oldest past its cap or budget, and
-- completes its Idempotency-Key record when one is given (only the in-flight record it was
-- claimed as). Answers { sequence, held (1/0) }, CLOSED (the account was reset since), TAKEN
-- (nothing made) when another request holds the key in flight: it was taken over while this
-- instance was presumed dead (no heartbeat), or ID_HELD (nothing made) when the key holds a
-- payment with this id (another instance with the same seed drew it: the caller draws again).
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
`,
  },
  psm_endpoint: {
    reply: 'integer',
    args: ['id', 'json', 'onlyIfHeld', 'max'],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local id = ARGV[3]
local json = ARGV[4]
local onlyIfHeld = ARGV[5]
local max = ARGV[6]
-- script
-- Registers a new endpoint, or stores a held endpoint's new state. Answers the endpoint count;
-- -1 when nothing was stored (reset since, or not held when only a held one may be stored); -2,
-- storing nothing, when it is a new endpoint and the key already has max; -3, storing nothing,
-- when only a new one may be stored and the key holds one with this id (its id drawn again).
if not writable() then return -1 end
local held = redis.call('HEXISTS', k('e'), id) == 1
if onlyIfHeld == '1' and not held then return -1 end
if onlyIfHeld == '0' and held then return -3 end
if not held and redis.call('HLEN', k('e')) >= tonumber(max) then return -2 end
if not held then redis.call('RPUSH', k('eo'), id) end
redis.call('HSET', k('e'), id, json)
redis.call('HSET', base, 'hooks', '1')
return redis.call('HLEN', k('e'))
`,
  },
  psm_endpoint_delete: {
    reply: 'integer',
    args: ['id'],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local id = ARGV[3]
-- script
-- Deletes an endpoint. Answers 1 when there was one.
if not live() then return 0 end
if redis.call('HDEL', k('e'), id) == 0 then return 0 end
redis.call('LREM', k('eo'), 0, id)
return 1
`,
  },
  psm_endpoints: {
    reply: 'array',
    args: [],
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
-- script
-- The endpoints, oldest first.
return inOrder(k('eo'), k('e'))
`,
  },
  psm_enqueue: {
    reply: 'integer',
    args: ['dueAt', 'json', 'budget'],
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
local dueAt = ARGV[3]
local json = ARGV[4]
local budget = ARGV[5]
-- script
-- Schedules an attempt: its sequence, or -1 (nothing scheduled) when the key has too many waiting.
if not writable() then return -1 end
local seq = schedule(dueAt, json, budget)
if seq >= 0 then reindex() end
return seq
`,
  },
  psm_event: {
    reply: 'integer',
    args: ['id', 'bytes', 'json', 'budget'],
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_EVENTS_PER_KEY', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
local id = ARGV[3]
local bytes = ARGV[4]
local json = ARGV[5]
local budget = ARGV[6]
-- script
-- Keeps a new event for redelivery (the oldest go past MAX_EVENTS_PER_KEY or the webhook
-- budget). Answers 1; 0 when the account was reset since; 2, keeping nothing, when the key
-- keeps an event with this id (its id drawn again).
if not writable() then return 0 end
if redis.call('HEXISTS', k('v'), id) == 1 then return 2 end
redis.call('RPUSH', k('vo'), id)
redis.call('HSET', k('v'), id, bytes .. '|' .. json)
redis.call('HSET', base, 'hooks', '1')
webhookBytes(tonumber(bytes))
if redis.call('LLEN', k('vo')) > MAX_EVENTS_PER_KEY then forgetOldest(k('vo'), k('v')) end
trimWebhooks(tonumber(budget))
return 1
`,
  },
  psm_events: {
    reply: 'array',
    args: [],
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
-- script
-- The events kept, oldest first (each 'bytes|json').
return inOrder(k('vo'), k('v'))
`,
  },
  psm_expire_keys: {
    reply: 'integer',
    args: ['accountNow'],
    includes: ['account', 'records'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local accountNow = ARGV[3]
-- script
-- Drops the records expired on the key's clock.
if live() then expireRecords(accountNow) end
return 1
`,
  },
  psm_find: {
    reply: 'array?',
    args: ['now', 'paymentId'],
    includes: ['account', 'state', 'payments'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local now = ARGV[3]
local paymentId = ARGV[4]
-- script
-- The account's state (see state.lua), or nil when it holds nothing; with a payment id, the
-- payment's five fields after it (none when not held).
local s = state(now)
if s and paymentId ~= '' then
  for _, field in ipairs(payments({ paymentId })) do table.insert(s, field) end
end
return s
`,
  },
  psm_finish_attempt: {
    reply: 'integer',
    args: ['member'],
    optional: { name: 'retry', args: ['dueAt', 'json', 'budget'] },
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
local member = ARGV[3]
local dueAt = ARGV[4]
local json = ARGV[5]
local budget = ARGV[6]
local retry = ARGV[4] ~= nil
-- script
-- Marks an attempt as made: forgets it, leased or still scheduled, and schedules its retry in the
-- same step when one is given (an instance that dies after either never leaves the attempt made
-- without its retry). Answers the retry's sequence, or -1 (none given, or too many waiting).
unschedule(member)
redis.call('ZREM', k('ql'), member)
redis.call('HDEL', k('qo'), member)
redis.call('HDEL', k('qd'), member)
local seq = -1
if retry and writable() then seq = schedule(dueAt, json, budget) end
reindex()
return seq
`,
  },
  psm_forget_key: {
    reply: 'integer',
    args: ['key', 'json'],
    includes: ['account', 'records'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local key = ARGV[3]
local json = ARGV[4]
-- script
-- Forgets a record if it is still the one held.
if live() and redis.call('HGET', k('i'), key) == json then dropRecord(key) end
return 1
`,
  },
  psm_keys: {
    reply: 'array',
    args: [],
    includes: ['account', 'records'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
-- script
-- Every record, oldest first.
local out = {}
for _, key in ipairs(redis.call('ZRANGE', recordOrder(), 0, -1)) do
  table.insert(out, redis.call('HGET', k('i'), key))
end
return out
`,
  },
  psm_list: {
    reply: 'array?',
    args: ['limit', 'startingAfter'],
    includes: ['account', 'payments'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local limit = ARGV[3]
local startingAfter = ARGV[4]
-- script
-- A page newest first: has_more, then five fields a payment; nil when the cursor is not held.
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
`,
  },
  psm_log: {
    reply: 'integer',
    args: ['bytes', 'entry', 'budget'],
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_LOG_ENTRIES_PER_KEY', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
local bytes = ARGV[3]
local entry = ARGV[4]
local budget = ARGV[5]
-- script
-- Logs one delivery attempt (the oldest go past MAX_LOG_ENTRIES_PER_KEY or the webhook budget).
if not writable() then return 0 end
redis.call('RPUSH', k('l'), bytes .. '|' .. entry)
redis.call('HSET', base, 'hooks', '1')
webhookBytes(tonumber(bytes))
if redis.call('LLEN', k('l')) > MAX_LOG_ENTRIES_PER_KEY then forgetOldest(k('l'), nil) end
trimWebhooks(tonumber(budget))
return 1
`,
  },
  psm_next_attempt: {
    reply: 'string?',
    args: ['serverNow'],
    includes: ['account', 'webhooks'],
    constants: ['ACCOUNT_BYTES', 'MAX_QUEUED_PER_KEY', 'QUEUED_BYTES'],
    lua: `-- arguments
local serverNow = ARGV[3]
-- script
-- When the earliest scheduled attempt is due (key's clock), or nil, after putting back the
-- attempts whose lease ended: an attempt leased by a dead instance is due again, for any
-- instance to claim.
if not live() then return false end
releaseLeases(serverTime(serverNow))
local due = redis.call('ZRANGE', k('q'), 0, 0, 'WITHSCORES')[2]
reindex()
return due or false
`,
  },
  psm_open: {
    reply: 'array',
    args: ['now', 'format', 'maxAccounts', 'idleMs', 'paymentId'],
    optional: { name: 'claiming', args: ['key', 'json', 'bytes', 'accountNow', 'expiresAt', 'serverExpiresAt', 'maxRecords', 'budget', 'owner', 'serverNow', 'offset'] },
    includes: ['account', 'state', 'records', 'payments', 'forget'],
    constants: ['ACCOUNT_BYTES', 'ACCOUNT_PARTS', 'FORMAT_REFUSED', 'MAX_FORGOTTEN_PER_CALL', 'NONE', 'SKIPPED', 'TOMBSTONE_MS'],
    lua: `-- arguments
local now = ARGV[3]
local format = ARGV[4]
local maxAccounts = ARGV[5]
local idleMs = ARGV[6]
local paymentId = ARGV[7]
local key = ARGV[8]
local json = ARGV[9]
local bytes = ARGV[10]
local accountNow = ARGV[11]
local expiresAt = ARGV[12]
local serverExpiresAt = ARGV[13]
local maxRecords = ARGV[14]
local budget = ARGV[15]
local owner = ARGV[16]
local serverNow = ARGV[17]
local offset = ARGV[18]
local claiming = ARGV[8] ~= nil
-- script
-- The account's state (see state.lua), created empty (a new generation) when absent. Refuses a
-- prefix of another store format version; marks a fresh one as ours. With a claim, also claims
-- the Idempotency-Key, if the key's clock offset is still the one the claim was computed with and
-- no fault is armed: after the state comes false (claimed), the record held, SKIPPED, or NONE (no
-- claim asked). Then how many fields of the payment asked for follow (0 or 5: none asked or not
-- held), and those fields. A new account beyond maxAccounts forgets idle ones: the bytes each
-- held follow.
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
`,
  },
  psm_payment: {
    reply: 'array',
    args: ['id'],
    includes: ['account', 'payments'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local id = ARGV[3]
-- script
-- One payment: id, json, meta, changes, sequence (none when not held).
return payments({ id })
`,
  },
  psm_payments: {
    reply: 'array',
    args: [],
    includes: ['account', 'payments'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
-- script
-- Every payment, oldest first, five fields each.
return payments(redis.call('ZRANGE', k('o'), 0, -1))
`,
  },
  psm_release: {
    reply: 'integer',
    args: [],
    includes: ['account', 'forget'],
    constants: ['ACCOUNT_BYTES', 'ACCOUNT_PARTS', 'TOMBSTONE_MS'],
    lua: `-- arguments
-- script
-- Deletes the account if it holds nothing worth keeping. Answers 1 when deleted.
if not live() then return 0 end
local s = redis.call('HMGET', base, 'off', 'f', 'hooks')
if (s[1] or '0') ~= '0' or (s[2] or '{}') ~= '{}' or s[3] then return 0 end
if redis.call('ZCARD', k('o')) > 0 or redis.call('HLEN', k('i')) > 0 or redis.call('LLEN', k('r')) > 0 then return 0 end
deleteAccount(false)
return 1
`,
  },
  psm_renew: {
    reply: 'integer',
    args: ['now', 'leaseMs', 'owner'],
    rest: 'members',
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local now = ARGV[3]
local leaseMs = ARGV[4]
local owner = ARGV[5]
local members = {}
for index = 6, #ARGV do table.insert(members, ARGV[index]) end
-- script
-- Extends the leases the instance owner still holds among members to now + leaseMs; answers how
-- many it still held.
local leaseUntil = serverTime(now) + tonumber(leaseMs)
local held = 0
for _, member in ipairs(members) do
  if redis.call('HGET', k('qo'), member) == owner and redis.call('ZSCORE', k('ql'), member) then
    redis.call('ZADD', k('ql'), leaseUntil, member)
    held = held + 1
  end
end
if held > 0 then reindex() end
return held
`,
  },
  psm_request: {
    reply: 'integer',
    args: ['bytes', 'entry'],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES', 'MAX_RECORDED_REQUESTS', 'MAX_REQUEST_LOG_BYTES'],
    lua: `-- arguments
local bytes = ARGV[3]
local entry = ARGV[4]
-- script
-- Records a request as the newest of the inspector's log (bounded in count and bytes).
if not writable() then return 0 end
redis.call('RPUSH', k('r'), bytes .. '|' .. entry)
redis.call('HINCRBY', base, 'rb', bytes)
addBytes(tonumber(bytes))
while true do
  local count = redis.call('LLEN', k('r'))
  if not (count > MAX_RECORDED_REQUESTS or (count > 1 and num(redis.call('HGET', base, 'rb')) > MAX_REQUEST_LOG_BYTES)) then break end
  local dropped = sized(redis.call('LPOP', k('r')))
  redis.call('HINCRBY', base, 'rb', -dropped)
  addBytes(-dropped)
end
return 1
`,
  },
  psm_reset: {
    reply: 'integer',
    args: [],
    includes: ['account', 'forget'],
    constants: ['ACCOUNT_BYTES', 'ACCOUNT_PARTS', 'TOMBSTONE_MS'],
    lua: `-- arguments
-- script
-- Deletes everything of the account (a tombstone keeps late writes out); answers how many
-- payments it held.
if not redis.call('HGET', base, 'gen') then return 0 end
return deleteAccount(true)
`,
  },
  psm_set: {
    reply: 'integer',
    args: ['field', 'value'],
    includes: ['account'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local field = ARGV[3]
local value = ARGV[4]
-- script
-- Sets the clock offset (seconds) or the faults (JSON): 1, or 0 when the account was reset since.
if field ~= 'off' and field ~= 'f' then return redis.error_reply('psm_set sets off or f, not ' .. field) end
if not writable() then return 0 end
redis.call('HSET', base, field, value)
if field == 'off' then reindex() end
return 1
`,
  },
  psm_settle: {
    reply: 'array',
    args: ['accountNow'],
    includes: ['account', 'payments'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local accountNow = ARGV[3]
-- script
-- Takes the payments due to settle off the schedule (one caller gets each): five fields each.
if not live() then return {} end
local ids = redis.call('ZRANGEBYSCORE', k('s'), '-inf', accountNow)
if #ids == 0 then
  reindex() -- the index may have named a payment evicted since
  return {}
end
for _, id in ipairs(ids) do redis.call('ZREM', k('s'), id) end
reindex()
return payments(ids)
`,
  },
  psm_sweep: {
    reply: 'integer',
    args: ['serverNow', 'most'],
    includes: ['account', 'records'],
    constants: ['ACCOUNT_BYTES'],
    lua: `-- arguments
local serverNow = ARGV[3]
local most = ARGV[4]
-- script
-- Fleet-wide (no account): drops up to \`most\` records expired on the server's clock in any
-- account. Answers how many went.
local members = redis.call('ZRANGEBYSCORE', prefix .. 'rx', '-inf', serverNow, 'LIMIT', 0, tonumber(most))
for _, member in ipairs(members) do
  local colon = string.find(member, ':', 1, true)
  h = string.sub(member, 1, colon - 1)
  base = prefix .. 'a:' .. h
  local key = string.sub(member, colon + 1)
  if redis.call('HEXISTS', k('ib'), key) == 1 then dropRecord(key) else redis.call('ZREM', prefix .. 'rx', member) end
end
return #members
`,
  },
  psm_transition: {
    reply: 'integer',
    args: ['id', 'expectedJson', 'json', 'stepJson', 'bytes'],
    optional: { name: 'completion', args: ['key', 'inFlightJson', 'completedJson', 'responseBytes', 'maxRecords', 'budget'] },
    includes: ['account', 'payments', 'records'],
    constants: ['ACCOUNT_BYTES', 'MAX_TIMELINE_STEPS'],
    lua: `-- arguments
local id = ARGV[3]
local expectedJson = ARGV[4]
local json = ARGV[5]
local stepJson = ARGV[6]
local bytes = ARGV[7]
local key = ARGV[8]
local inFlightJson = ARGV[9]
local completedJson = ARGV[10]
local responseBytes = ARGV[11]
local maxRecords = ARGV[12]
local budget = ARGV[13]
local completion = ARGV[8] ~= nil
-- script
-- Compare-and-set: the payment's new JSON and one more timeline step, only if its JSON is still
-- the one read (the key's oldest steps after the first go past MAX_TIMELINE_STEPS). With a
-- completion, the Idempotency-Key record is completed with it (if it is still ours). Answers 1
-- (done) or 0.
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
`,
  },
};
