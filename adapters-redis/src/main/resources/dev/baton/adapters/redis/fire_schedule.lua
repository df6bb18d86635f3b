-- Fires a schedule: appends the fire time's job to the stream and moves the schedule's watermark to it, atomically,
-- unless the watermark is already there or beyond (another scheduler fired it, or it was skipped).
-- KEYS[1] the schedule's state (hash: through, last_fire), KEYS[2] stream
-- ARGV[1] fire time (epoch ms), ARGV[2..] the entry's fields and values
-- Returns 1 when the job was appended, 0 when the fire time was already settled.
local through = tonumber(redis.call('HGET', KEYS[1], 'through'))
if through and through >= tonumber(ARGV[1]) then
  return 0
end
redis.call('XADD', KEYS[2], '*', unpack(ARGV, 2))
redis.call('HSET', KEYS[1], 'through', ARGV[1], 'last_fire', ARGV[1])
return 1
