-- Deletes a lock only while it holds the caller's token: a lock that expired and was taken by another stays theirs.
-- KEYS[1] lock
-- ARGV[1] the caller's token
-- Returns 1 when deleted, else 0.
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
