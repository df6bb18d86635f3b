-- Acknowledges entries, and releases the uniqueness keys they hold in the same step.
-- KEYS[1] stream, KEYS[2] the hash of stream entries holding keys (entry id -> [lock key, job id, period ms])
-- ARGV[1] group, ARGV[2..] entry ids
-- A key whose job completed expires after its period, or is deleted at once without one; only the lock of that job
-- is touched. Returns how many entries were acknowledged.
if redis.call('EXISTS', KEYS[2]) == 0 then
  return redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 2))
end
local acked = 0
for i = 2, #ARGV do
  if redis.call('XACK', KEYS[1], ARGV[1], ARGV[i]) == 1 then
    acked = acked + 1
    local held = redis.call('HGET', KEYS[2], ARGV[i])
    if held then
      redis.call('HDEL', KEYS[2], ARGV[i])
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
return acked
