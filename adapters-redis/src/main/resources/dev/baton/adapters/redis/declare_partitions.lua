-- Records a queue's partition count on first declaration and returns the count in force.
-- KEYS[1] metadata hash, KEYS[2..4] the unpartitioned stream, delayed set and dead letters (all in slot {queue})
-- ARGV[1] the partition count declared
-- Returns the recorded count; 1 when none was recorded but the unpartitioned keys exist (an existing queue has one
-- partition until it is repartitioned), in which case nothing is written.
local current = redis.call('HGET', KEYS[1], 'partitions')
if current then
  return tonumber(current)
end
if ARGV[1] ~= '1' and redis.call('EXISTS', KEYS[2], KEYS[3], KEYS[4]) > 0 then
  return 1
end
redis.call('HSET', KEYS[1], 'partitions', ARGV[1])
return tonumber(ARGV[1])
