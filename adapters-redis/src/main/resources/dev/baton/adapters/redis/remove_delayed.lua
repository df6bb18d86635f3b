-- Removes one delayed member without running it, atomically, and releases the uniqueness key its job holds: the lock
-- names the job and has no TTL while the job is delayed (see publish_unique.lua and promote_due.lua).
-- KEYS[1] delayed set
-- ARGV[1] the member (a JSON array: a unique token, then field names and values in pairs), ARGV[2] the prefix of the
-- partition's uniqueness locks
-- Returns 1 when this call removed the member, 0 when the set did not hold it.
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then
  return 0
end
local ok, decoded = pcall(cjson.decode, ARGV[1])
if ok and type(decoded) == 'table' then
  local values = {}
  for i = 2, #decoded - 1, 2 do
    values[decoded[i]] = decoded[i + 1]
  end
  local key, job = values['unique_key'], values['job_id']
  if type(key) == 'string' and type(job) == 'string' then
    local lock = ARGV[2] .. key
    if redis.call('GET', lock) == job and redis.call('PTTL', lock) == -1 then
      redis.call('DEL', lock)
    end
  end
end
return 1
