-- Acknowledges a delivery and appends it to the dead letters, atomically.
-- KEYS[1] stream, KEYS[2] dead-letter stream, KEYS[3] the hash of stream entries holding uniqueness keys
-- ARGV[1] group, ARGV[2] entry id, ARGV[3] '1' to copy the entry's own fields byte for byte (malformed entries),
-- ARGV[4] n = number of job field arguments that follow, ARGV[5 .. 4+n] job fields, then the dead_* fields.
-- A uniqueness key the entry holds is released in the same step (see acknowledge.lua).
-- Returns the dead letter's id, or false when the entry was no longer pending.
local function release(entry)
  local held = redis.call('HGET', KEYS[3], entry)
  if held then
    redis.call('HDEL', KEYS[3], entry)
    local lock = cjson.decode(held)
    if redis.call('GET', lock[1]) == lock[2] then
      redis.call('DEL', lock[1])
    end
  end
end
if redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return false
end
release(ARGV[2])
local fields = {}
local n = tonumber(ARGV[4])
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
  for i = 5, 4 + n do
    fields[#fields + 1] = ARGV[i]
  end
end
for i = 5 + n, #ARGV do
  fields[#fields + 1] = ARGV[i]
end
return redis.call('XADD', KEYS[2], '*', unpack(fields))
