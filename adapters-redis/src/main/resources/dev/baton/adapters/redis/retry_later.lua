-- Acknowledges a delivery and schedules its retry, atomically.
-- KEYS[1] stream, KEYS[2] delayed set, KEYS[3] isolated hash (the entry's isolation record is forgotten),
-- KEYS[4] the hash of stream entries holding uniqueness keys, KEYS[5] the partition's totals hash (field retried)
-- ARGV[1] group, ARGV[2] entry id, ARGV[3] due time (epoch ms), ARGV[4] delayed member (encoded job)
-- The job keeps its uniqueness key: the acknowledged entry no longer holds it, the retried job does (promotion
-- records the new entry).
-- Returns 1 when moved, 0 when the entry was no longer pending (someone else finished it: nothing to schedule).
if redis.call('XACK', KEYS[1], ARGV[1], ARGV[2]) == 0 then
  return 0
end
redis.call('HDEL', KEYS[3], ARGV[2])
redis.call('HDEL', KEYS[4], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('HINCRBY', KEYS[5], 'retried', 1)
return 1
