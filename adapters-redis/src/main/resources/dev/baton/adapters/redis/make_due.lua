-- Makes one delayed member due at a time, unless it is due earlier: atomic with promotion, which may have moved it.
-- KEYS[1] delayed set
-- ARGV[1] the member, ARGV[2] now (epoch ms)
-- Returns 1 when the set held the member, 0 when not.
local due = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not due then
  return 0
end
if tonumber(due) > tonumber(ARGV[2]) then
  redis.call('ZADD', KEYS[1], 'XX', ARGV[2], ARGV[1])
end
return 1
