-- Moves up to N due jobs from the delayed set into the stream. Atomic, so concurrent promoters never move one twice.
-- KEYS[1] delayed set, KEYS[2] stream
-- ARGV[1] now (epoch ms), ARGV[2] max jobs
-- A member is a JSON array: a unique token, then field names and values in pairs. A member that is not one is moved
-- as an entry with the single field 'delayed_member', so that workers dead-letter it as malformed: never blocks.
-- Returns how many members moved.
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, ARGV[2])
for _, member in ipairs(due) do
  local ok, decoded = pcall(cjson.decode, member)
  local valid = ok and type(decoded) == 'table' and #decoded >= 3 and #decoded % 2 == 1
  if valid then
    for i = 1, #decoded do
      if type(decoded[i]) ~= 'string' then
        valid = false
        break
      end
    end
  end
  if valid then
    redis.call('XADD', KEYS[2], '*', unpack(decoded, 2))
  else
    redis.call('XADD', KEYS[2], '*', 'delayed_member', member)
  end
  redis.call('ZREM', KEYS[1], member)
end
return #due
