-- Takes over entries of any consumer idle for at least min-idle, oldest first.
-- KEYS[1] stream, KEYS[2] isolated hash (entry id -> isolated deliveries), KEYS[3] the hash of stream entries
-- holding uniqueness keys (a vanished entry's key is released by release_uniqueness.lua, put before this: its job
-- can never finish)
-- ARGV[1] group, ARGV[2] consumer, ARGV[3] min idle (ms), ARGV[4] max entries
-- Returns { {id, fields, delivery count, isolated deliveries}..., } and the ids whose data vanished (removed from
-- the pending list, their isolation records forgotten).
local claimed, vanished = {}, {}
local pending = redis.call('XPENDING', KEYS[1], ARGV[1], 'IDLE', ARGV[3], '-', '+', ARGV[4])
for _, p in ipairs(pending) do
  local id = p[1]
  if #redis.call('XRANGE', KEYS[1], id, id) == 0 then
    -- trimmed or deleted while pending: nobody can ever process it, so it must not stay pending
    redis.call('XACK', KEYS[1], ARGV[1], id)
    redis.call('HDEL', KEYS[2], id)
    release_uniqueness(KEYS[3], id)
    vanished[#vanished + 1] = id
  else
    local entry = redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], ARGV[3], id)
    if #entry == 1 then
      claimed[#claimed + 1] = { id, entry[1][2], p[4] + 1, tonumber(redis.call('HGET', KEYS[2], id) or '0') }
    end
  end
end
return { claimed, vanished }
