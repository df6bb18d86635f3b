-- Acknowledges a delivery and appends it to the dead letters, atomically; once per dead job: when the job's dead
-- letter is still there (a delivery of a job the execution ledger says is dead, after Redis rolled back its group),
-- the delivery is only acknowledged. When Redis lost the dead letter, it is written again.
-- KEYS[1] stream, KEYS[2] dead-letter stream, KEYS[3] dead jobs hash (dead job key -> dead letter id),
-- KEYS[4] isolated hash (the entry's isolation record is forgotten), KEYS[5] the hash of stream entries holding
-- uniqueness keys (a key the entry holds is released in the same step: release_uniqueness.lua, put before this),
-- KEYS[6] the partition's totals hash (field dead counts the dead letters written)
-- ARGV[1] group, ARGV[2] entry id, ARGV[3] '1' to copy the entry's own fields byte for byte (malformed entries),
-- ARGV[4] the dead job key, ARGV[5] n = number of job field arguments that follow, ARGV[6 .. 5+n] job fields, then
-- the dead_* fields.
-- Returns the dead letter's id (the one already there, or the new one), or false when the entry was no longer pending.
if redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return false
end
release_uniqueness(KEYS[5], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
local existing = redis.call('HGET', KEYS[3], ARGV[4])
if existing and #redis.call('XRANGE', KEYS[2], existing, existing) == 1 then
  return existing
end
local fields = {}
local n = tonumber(ARGV[5])
local original = {}
if ARGV[3] == '1' then
  original = redis.call('XRANGE', KEYS[1], ARGV[2], ARGV[2])
end
if #original == 1 then
  local raw = original[1][2]
  for i = 1, #raw, 2 do
    if string.sub(raw[i], 1, 5) ~= 'dead_' then
      fields[#fields + 1] = raw[i]
      fields[#fields + 1] = raw[i + 1]
    end
  end
else
  for i = 6, 5 + n do
    fields[#fields + 1] = ARGV[i]
  end
end
for i = 6 + n, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
local id = redis.call('XADD', KEYS[2], '*', unpack(fields))
redis.call('HSET', KEYS[3], ARGV[4], id)
redis.call('HINCRBY', KEYS[6], 'dead', 1)
return id
