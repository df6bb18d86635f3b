-- Moves dead letters back into the stream, atomically: attempt reset, dead_* and last_error_* fields dropped.
-- Malformed dead letters go back verbatim (only the dead_* fields are dropped). Each one's key leaves the dead jobs
-- hash (when it still names this dead letter), so that the job may be dead-lettered again.
-- KEYS[1] dead-letter stream, KEYS[2] stream, KEYS[3] dead jobs hash
-- ARGV[1..] dead letter ids; unknown ids are skipped.
-- Returns how many moved.
local moved = 0
for i = 1, #ARGV do
  local entry = redis.call('XRANGE', KEYS[1], ARGV[i], ARGV[i])
  if #entry == 1 then
    local raw = entry[1][2]
    local malformed = false
    local key = nil
    local original = ARGV[i]
    for j = 1, #raw, 2 do
      if raw[j] == 'dead_reason' and raw[j + 1] == 'MALFORMED' then
        malformed = true
      elseif raw[j] == 'job_id' and raw[j + 1] ~= '' then
        key = raw[j + 1]
      elseif raw[j] == 'dead_original_id' then
        original = raw[j + 1]
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
      key = key or ('entry:' .. original)
      if redis.call('HGET', KEYS[3], key) == ARGV[i] then
        redis.call('HDEL', KEYS[3], key)
      end
      moved = moved + 1
    end
  end
end
return moved
