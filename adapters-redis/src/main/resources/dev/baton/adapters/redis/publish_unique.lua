-- Publishes a job that carries a uniqueness key, unless a job holds the key: the check and the publish in one step.
-- KEYS[1] stream, KEYS[2] delayed set, KEYS[3] the key's lock, KEYS[4] the hash of stream entries holding keys
-- ARGV[1] job id, ARGV[2] how long the key outlives the job's completion (ms, 0: released at once),
-- ARGV[3] due time (epoch ms) or '' when due now, then the delayed member (due later) or the entry's fields (now).
-- The lock holds the job id, without a TTL while the job waits, is delayed or runs; the entry that holds it is
-- recorded in KEYS[4] (a delayed job's when promotion appends it), so that its terminal move releases the key.
-- Returns the id of the job that holds the key: ARGV[1] when published.
local holder = redis.call('GET', KEYS[3])
if holder then
  return holder
end
redis.call('SET', KEYS[3], ARGV[1])
if ARGV[3] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
else
  local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 4))
  redis.call('HSET', KEYS[4], id, cjson.encode({ KEYS[3], ARGV[1], ARGV[2] }))
end
return ARGV[1]
