-- Deletes dead letters for good, atomically, each one's key leaving the dead jobs hash (when it still names it).
-- KEYS[1] dead-letter stream, KEYS[2] dead jobs hash
-- ARGV[1..] dead letter ids; unknown ids are skipped.
-- Returns how many were deleted.
local deleted = 0
for i = 1, #ARGV do
  local entry = redis.call('XRANGE', KEYS[1], ARGV[i], ARGV[i])
  if #entry == 1 then
    local raw = entry[1][2]
    local key = nil
    local original = ARGV[i]
    for j = 1, #raw, 2 do
      if raw[j] == 'job_id' and raw[j + 1] ~= '' then
        key = raw[j + 1]
      elseif raw[j] == 'dead_original_id' then
        original = raw[j + 1]
      end
    end
    key = key or ('entry:' .. original)
    if redis.call('HGET', KEYS[2], key) == ARGV[i] then
      redis.call('HDEL', KEYS[2], key)
    end
    deleted = deleted + redis.call('XDEL', KEYS[1], ARGV[i])
  end
end
return deleted
