-- Records a request as the newest of the inspector's log (bounded in count and bytes).
--@include account
--@reply integer
--@arg bytes number the entry's bytes
--@arg entry string the entry's JSON
if not writable() then return 0 end
redis.call('RPUSH', k('r'), bytes .. '|' .. entry)
redis.call('HINCRBY', base, 'rb', bytes)
addBytes(tonumber(bytes))
while true do
  local count = redis.call('LLEN', k('r'))
  if not (count > MAX_RECORDED_REQUESTS or (count > 1 and num(redis.call('HGET', base, 'rb')) > MAX_REQUEST_LOG_BYTES)) then break end
  local dropped = sized(redis.call('LPOP', k('r')))
  redis.call('HINCRBY', base, 'rb', -dropped)
  addBytes(-dropped)
end
return 1
