-- Forgets the isolation records of entries below a trim's MINID: they are gone from the stream, nobody runs them.
-- KEYS[1] isolated hash
-- ARGV[1] the MINID (entries below it were trimmed)
-- Returns how many records it forgot.
local function parts(id)
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  return tonumber(ms), tonumber(seq)
end
local min_ms, min_seq = parts(ARGV[1])
local below = {}
for _, id in ipairs(redis.call('HKEYS', KEYS[1])) do
  local ms, seq = parts(id)
  if ms < min_ms or (ms == min_ms and seq < min_seq) then
    below[#below + 1] = id
  end
end
if #below > 0 then
  redis.call('HDEL', KEYS[1], unpack(below))
end
return #below
