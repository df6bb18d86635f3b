-- Deletes consumers idle for longer than a limit that own no pending entries (XGROUP DELCONSUMER would drop them):
-- every such consumer, or only those named. Atomic, so a consumer cannot lease an entry between the check and the
-- delete.
-- KEYS[1] stream
-- ARGV[1] group, ARGV[2] idle limit (ms; -1 for any idle time), ARGV[3] 'all', or 'named' and the names in ARGV[4..]
-- Returns the names removed.
local named = nil
if ARGV[3] == 'named' then
  named = {}
  for i = 4, #ARGV do
    named[ARGV[i]] = true
  end
end
local removed = {}
local limit = tonumber(ARGV[2])
for _, c in ipairs(redis.call('XINFO', 'CONSUMERS', KEYS[1], ARGV[1])) do
  local info = {}
  for i = 1, #c, 2 do
    info[c[i]] = c[i + 1]
  end
  if info['pending'] == 0 and info['idle'] > limit and (named == nil or named[info['name']]) then
    redis.call('XGROUP', 'DELCONSUMER', KEYS[1], ARGV[1], info['name'])
    removed[#removed + 1] = info['name']
  end
end
return removed
