-- Settles a schedule's fire times up to an instant without firing them: the watermark moves forward, never back.
-- KEYS[1] the schedule's state (hash: through, last_fire)
-- ARGV[1] settled through (epoch ms)
-- Returns 1 when the watermark moved, 0 when it was already there or beyond.
local through = tonumber(redis.call('HGET', KEYS[1], 'through'))
if through and through >= tonumber(ARGV[1]) then
  return 0
end
redis.call('HSET', KEYS[1], 'through', ARGV[1])
return 1
