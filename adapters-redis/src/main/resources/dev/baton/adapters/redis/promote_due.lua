-- Moves up to N due jobs from the delayed set into the stream. Atomic, so concurrent promoters never move one twice.
-- KEYS[1] delayed set, KEYS[2] stream, KEYS[3] the hash of stream entries holding uniqueness keys
-- ARGV[1] now (epoch ms), ARGV[2] max jobs, ARGV[3] the prefix of the partition's uniqueness locks
-- A job whose fields name a uniqueness key it holds (its lock names its job id, with no TTL) hands the key to its new
-- entry, so that the entry's terminal move releases it (see publish_unique.lua).
-- A member is a JSON array: a unique token, then field names and values in pairs. A member that is not one is moved
-- as an entry with the single field 'delayed_member', so that workers dead-letter it as malformed: never blocks.
-- Returns how many members moved.
local function holdKey(entry, fields)
  local values = {}
  for i = 1, #fields, 2 do
    values[fields[i]] = fields[i + 1]
  end
  local key, job = values['unique_key'], values['job_id']
  if key and job then
    local lock = ARGV[3] .. key
    if redis.call('GET', lock) == job and redis.call('PTTL', lock) == -1 then
      redis.call('HSET', KEYS[3], entry, cjson.encode({ lock, job, values['unique_for_ms'] or '0' }))
    end
  end
end
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, member in ipairs(due) do
  local ok, decoded = pcall(cjson.decode, member)
  local valid = ok and type(decoded) == 'table' and #decoded >= 3 and #decoded % 2 == 1
  if valid then
    for i = 1, #decoded do
      if type(decoded[i]) ~= 'string' then
        valid = false
        break
      end
    end
  end
  if valid then
    local fields = { unpack(decoded, 2) }
    holdKey(redis.call('XADD', KEYS[2], '*', unpack(fields)), fields)
  else
    redis.call('XADD', KEYS[2], '*', 'delayed_member', member)
  end
  redis.call('ZREM', KEYS[1], member)
end
return #due
