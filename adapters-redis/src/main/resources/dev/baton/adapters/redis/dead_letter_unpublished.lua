-- Appends the dead letter of a job that never reached a stream (an outbox row the relay cannot publish), once per
-- dead job key: when that key's dead letter is still there (the relay failed after this and retries), nothing is
-- appended. Its fields are a dead letter's as dead_letter.lua writes them (dead_original_id the letter's origin).
-- KEYS[1] dead-letter stream, KEYS[2] dead jobs hash (dead job key -> dead letter id), KEYS[3] the partition's totals
-- hash (field dead counts the dead letters written)
-- ARGV[1] the dead job key, ARGV[2..] the dead letter's fields.
-- Returns the dead letter's id (the one already there, or the new one).
local existing = redis.call('HGET', KEYS[2], ARGV[1])
if existing and #redis.call('XRANGE', KEYS[1], existing, existing) == 1 then
  return existing
end
local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 2))
redis.call('HSET', KEYS[2], ARGV[1], id)
redis.call('HINCRBY', KEYS[3], 'dead', 1)
return id
