-- Shared by the scripts that end an entry's life without acknowledge.lua: releases the uniqueness key the entry
-- holds, if any. The entry is forgotten in the holders hash (entry id -> [lock key, lock value, period ms]); the lock
-- is deleted only while it still holds this entry's value, so a newer job that took the key keeps it.
local function release_uniqueness(holders, entry)
  local held = redis.call('HGET', holders, entry)
  if held then
    redis.call('HDEL', holders, entry)
    local lock = cjson.decode(held)
    if redis.call('GET', lock[1]) == lock[2] then
      redis.call('DEL', lock[1])
    end
  end
end
