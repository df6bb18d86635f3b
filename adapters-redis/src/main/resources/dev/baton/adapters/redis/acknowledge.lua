-- Acknowledges finished entries, forgets their isolation records and releases the uniqueness keys they hold,
-- atomically.
-- KEYS[1] stream, KEYS[2] isolated hash, KEYS[3] the hash of stream entries holding uniqueness keys
-- (entry id -> [lock key, job id, period ms]), KEYS[4] the partition's totals hash (field completed counts the entries
-- acknowledged here)
-- ARGV[1] group, ARGV[2..] entry ids
-- A key whose job completed expires after its period, or is deleted at once without one; only the lock of that job
-- is touched. Returns how many were pending.
redis.call('HDEL', KEYS[2], unpack(ARGV, 2))
if redis.call('EXISTS', KEYS[3]) == 0 then
  local acknowledged = redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 2))
  if acknowledged > 0 then
    redis.call('HINCRBY', KEYS[4], 'completed', acknowledged)
  end
  return acknowledged
end
local acknowledged = 0
for i = 2, #ARGV do
  if redis.call('XACK', KEYS[1], ARGV[1], ARGV[i]) == 1 then
    acknowledged = acknowledged + 1
    local held = redis.call('HGET', KEYS[3], ARGV[i])
    if held then
      redis.call('HDEL', KEYS[3], ARGV[i])
      local lock = cjson.decode(held)
      if redis.call('GET', lock[1]) == lock[2] then
        if tonumber(lock[3]) > 0 then
          redis.call('PEXPIRE', lock[1], lock[3])
        else
          redis.call('DEL', lock[1])
        end
      end
    end
  end
end
if acknowledged > 0 then
  redis.call('HINCRBY', KEYS[4], 'completed', acknowledged)
end
return acknowledged
