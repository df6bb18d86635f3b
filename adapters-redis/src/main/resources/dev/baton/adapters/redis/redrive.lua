-- Moves dead letters back into the stream, atomically: attempt reset, dead_* and last_error_* fields dropped.
-- Malformed dead letters go back verbatim (only the dead_* fields are dropped).
-- KEYS[1] dead-letter stream, KEYS[2] stream
-- ARGV[1..] dead letter ids; unknown ids are skipped.
-- Returns how many moved.
local moved = 0
for i = 1, #ARGV do
  local entry = redis.call('XRANGE', KEYS[1], ARGV[i], ARGV[i])
  if #entry == 1 then
    local raw = entry[1][2]
    local malformed = false
    for j = 1, #raw, 2 do
      if raw[j] == 'dead_reason' and raw[j + 1] == 'MALFORMED' then
        malformed = true
      end
    end
    local fields = {}
    for j = 1, #raw, 2 do
      local name, value = raw[j], raw[j + 1]
      local keep = string.sub(name, 1, 5) ~= 'dead_'
      if keep and not malformed then
        keep = string.sub(name, 1, 11) ~= 'last_error_'
        if name == 'attempt' then
          value = '0'
        end
      end
      if keep then
        fields[#fields + 1] = name
        fields[#fields + 1] = value
      end
    end
    if #fields > 0 then
      redis.call('XADD', KEYS[2], '*', unpack(fields))
      redis.call('XDEL', KEYS[1], ARGV[i])
      moved = moved + 1
    end
  end
end
return moved
