-- Records that a consumer runs an entry isolated (alone in its worker), if the consumer still holds it.
-- KEYS[1] stream, KEYS[2] isolated hash (entry id -> isolated deliveries)
-- ARGV[1] group, ARGV[2] consumer, ARGV[3] entry id
-- Returns the entry's isolated deliveries, this one included, or false when the consumer no longer holds it.
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #pending == 0 or pending[1][2] ~= ARGV[2] then
  return false
end
return redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
