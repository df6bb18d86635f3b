-- Acknowledges finished entries and forgets their isolation records, atomically.
-- KEYS[1] stream, KEYS[2] isolated hash
-- ARGV[1] group, ARGV[2..] entry ids
-- Returns how many were pending.
local acknowledged = redis.call('XACK', KEYS[1], ARGV[1], unpack(ARGV, 2))
redis.call('HDEL', KEYS[2], unpack(ARGV, 2))
return acknowledged
