-- Leases again the entries already pending for a consumer, with their delivery counts.
-- KEYS[1] stream, KEYS[2] isolated hash (entry id -> isolated deliveries)
-- ARGV[1] group, ARGV[2] consumer, ARGV[3] max entries
-- Returns { {id, fields or false when the data is gone, delivery count, isolated deliveries}, ... }, oldest first.
local read = redis.call('XREADGROUP', 'GROUP', ARGV[1], ARGV[2], 'COUNT', ARGV[3], 'STREAMS', KEYS[1], '0')
local entries = read[1][2]
local result = {}
if #entries == 0 then
  return result
end
local counts = {}
local first, last = entries[1][1], entries[#entries][1]
for _, p in ipairs(redis.call('XPENDING', KEYS[1], ARGV[1], first, last, #entries, ARGV[2])) do
  counts[p[1]] = p[4]
end
for _, e in ipairs(entries) do
  result[#result + 1] = { e[1], e[2], counts[e[1]] or 1, tonumber(redis.call('HGET', KEYS[2], e[1]) or '0') }
end
return result
