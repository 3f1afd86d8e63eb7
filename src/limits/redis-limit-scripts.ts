// The Lua scripts the Redis limit store runs (redis-limit-store.ts), with their names and versions.

// The scripts take Redis's own clock (TIME), so instances whose clocks differ still agree. The
// scripts' names carry a version that changes with what they are called with, so during a rolling
// deploy an old instance never runs a new script (or a new one an old script); the keys carry a
// version of their own that changes only with what is stored in them, so old and new instances
// keep counting the same limits together.
const SCRIPT_VERSION = 'v8';
export const DATA_VERSION = 'v1';

/**
 * One batch of this instance's requests, in one call: first the requests that ended (their token
 * counters moved by what they really used, their leases given back), then the requests asking in,
 * in order, each checking every limit it meets and taking them all or none (the GCRA of gcra.ts,
 * and leases in a sorted set scored by expiry), then the leases of running requests to renew (one
 * given back or dropped as expired is not taken again). Renewals are a part of this script, not
 * one of their own: ioredis makes a class per script, and one class reaching its send and reply
 * code keeps that code monomorphic. Each counter is read once and written once per
 * call, however many of the batch's requests meet it: a busy key's requests share their counters,
 * and a call of 15 such requests runs ten Redis commands instead of about 150. The script runs
 * alone, so what it keeps between two requests of the batch is what Redis would hold.
 * KEYS: the batch's counters' keys, each once.
 * ARGV[1]: every number of the batch, as a JSON array (one argument instead of a dozen per request:
 * ioredis converts, measures and writes each argument on its own; and Redis's C JSON decoder reads
 * it in about a microsecond, where splitting a spaced list in Lua took eight), written by
 * redis-limit-batch.ts — lease ms; the counter table: its length, then per counter: key index, burst
 * (a rate's, always 1 or more; 0 for concurrency), limit, period ms (each counter once, not once per
 * request that meets it); the count of ended requests, then per one: counter count, lease count, per
 * counter: its row in the table, delta, and per lease: key index; the count of requests asking, then
 * per one: check count, and per check: its row in the table, cost; the count of leases to renew,
 * then per one: key index.
 * ARGV[2]: the lease ids, of the ended requests, of those asking, then of the leases to renew, as a
 * JSON array of strings (one argument, not one per request: ioredis copies its arguments into a new
 * array one at a time, then measures and writes each).
 * Returns, per request asking: ok, retry-after ms (-1: never), refused count, the refused indexes,
 * then remaining and reset ms per check; all in one string, the numbers joined by commas (one
 * string is one read for the client's parser and one JSON.parse, where an array is an element at a
 * time and a conversion of each).
 */
export const BATCH = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local N = cjson.decode(ARGV[1])
local leaseIds = cjson.decode(ARGV[2])
local leaseMs = N[1]
local keyOf, burstOf, limitOf, periodOf = {}, {}, {}, {}
local a, l = 3, 1
for c = 1, N[2] do
  keyOf[c], burstOf[c], limitOf[c], periodOf[c] = N[a], N[a + 1], N[a + 2], N[a + 3]
  a = a + 4
end
local tats, changed, sizes, pruned, adds, removes = {}, {}, {}, {}, {}, {}
local function tatOf(k)
  local tat = tats[k]
  if tat == nil then
    tat = math.max(now, tonumber(redis.call('GET', KEYS[k]) or '0'))
    tats[k] = tat
  end
  return tat
end
local function setTat(k, tat) tats[k] = tat; changed[k] = true end
local function sizeOf(k, limit)
  local size = sizes[k]
  if size == nil then size = redis.call('ZCARD', KEYS[k]) end
  -- Expired leases matter only to a full limit: dropped then (once a call), not on every request.
  if size >= limit and not pruned[k] then
    pruned[k] = true
    size = size - redis.call('ZREMRANGEBYSCORE', KEYS[k], '-inf', now)
  end
  sizes[k] = size
  return size
end
local ended = N[a]; a = a + 1
for _ = 1, ended do
  local leaseId, counters, leases = leaseIds[l], N[a], N[a + 1]; l = l + 1; a = a + 2
  for _ = 1, counters do
    local c, delta = N[a], N[a + 1]; a = a + 2
    local k = keyOf[c]
    setTat(k, math.max(now, tatOf(k) + delta * periodOf[c] / limitOf[c]))
  end
  for _ = 1, leases do
    local k = N[a]; a = a + 1
    local ids = removes[k]
    if ids == nil then ids = {}; removes[k] = ids end
    ids[#ids + 1] = leaseId
  end
end
-- Given back before anyone asks: the slots are free for this call's requests.
for k, ids in pairs(removes) do redis.call('ZREM', KEYS[k], unpack(ids)) end
local answer = {}
local asking = N[a]; a = a + 1
for _ = 1, asking do
  local leaseId, n = leaseIds[l], N[a]; l = l + 1; a = a + 1
  local taking, readings, refused, retry = {}, {}, {}, 0
  for i = 0, n - 1 do
    local c = N[a + i * 2]
    local k, burst, limit = keyOf[c], burstOf[c], limitOf[c]
    if burst > 0 then
      local period, cost = periodOf[c], N[a + i * 2 + 1]
      local interval = period / limit
      local tolerance = period * burst / limit
      local base = tatOf(k)
      local tat = base + cost * interval
      if tat - now <= tolerance then
        taking[i] = tat
        readings[#readings + 1] = math.floor((tolerance - (tat - now)) / interval)
        readings[#readings + 1] = math.ceil(tat - now)
      else
        refused[#refused + 1] = i
        if cost > burst then retry = -1 elseif retry >= 0 then retry = math.max(retry, math.ceil(tat - tolerance - now)) end
        readings[#readings + 1] = math.max(0, math.floor((tolerance - (base - now)) / interval))
        readings[#readings + 1] = math.ceil(base - now)
      end
    else
      local size = sizeOf(k, limit)
      if size >= limit then refused[#refused + 1] = i end
      readings[#readings + 1] = math.max(0, limit - size - 1)
      readings[#readings + 1] = 0
    end
  end
  if #refused == 0 then
    for i = 0, n - 1 do
      local k = keyOf[N[a + i * 2]]
      if taking[i] then setTat(k, taking[i])
      else
        sizes[k] = sizes[k] + 1
        local held = adds[k]
        if held == nil then held = {}; adds[k] = held end
        held[#held + 1] = now + leaseMs
        held[#held + 1] = leaseId
      end
    end
  end
  answer[#answer + 1] = #refused == 0 and 1 or 0
  answer[#answer + 1] = retry
  answer[#answer + 1] = #refused
  for _, index in ipairs(refused) do answer[#answer + 1] = index end
  for _, value in ipairs(readings) do answer[#answer + 1] = value end
  a = a + n * 2
end
local renewing = N[a]; a = a + 1
for _ = 1, renewing do
  local k = N[a]; a = a + 1
  redis.call('ZADD', KEYS[k], 'XX', now + leaseMs, leaseIds[l]); l = l + 1
  redis.call('PEXPIRE', KEYS[k], leaseMs + 1000)
end
for k in pairs(changed) do
  local tat = tats[k]
  redis.call('SET', KEYS[k], string.format('%.3f', tat), 'PX', math.ceil(tat - now) + 1000)
end
for k, held in pairs(adds) do
  redis.call('ZADD', KEYS[k], unpack(held))
  redis.call('PEXPIRE', KEYS[k], leaseMs + 1000)
end
return table.concat(answer, ',')
`;

export type ScriptCall = (keyCount: number, ...keysAndArgs: Array<string | number>) => Promise<unknown>;
export const batchScriptName = `switchyardLimitsBatch_${SCRIPT_VERSION}`;
