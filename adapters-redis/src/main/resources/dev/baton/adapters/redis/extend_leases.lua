-- Resets the idle time of entries the consumer still owns; never takes an entry from another consumer.
-- KEYS[1] stream
-- ARGV[1] group, ARGV[2] consumer, ARGV[3..] entry ids
-- Returns the ids the consumer no longer owns (claimed by another consumer, acknowledged, or their data is gone).
local lost = {}
for i = 3, #ARGV do
  local id = ARGV[i]
  local pending = redis.call('XPENDING', KEYS[1], ARGV[1], id, id, 1)
  if #pending == 1 and pending[1][2] == ARGV[2] and #redis.call('XRANGE', KEYS[1], id, id) == 1 then
    -- JUSTID: resets the idle time without counting one more delivery
    redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, id, 'JUSTID')
  else
    lost[#lost + 1] = id
  end
end
return lost
