-- Logs one delivery attempt (the oldest go past MAX_LOG_ENTRIES_PER_KEY or the webhook budget).
--@include webhooks
--@reply integer
--@arg bytes number the entry's bytes
--@arg entry string its JSON
--@arg budget number the key's webhook budget
if not writable() then return 0 end
redis.call('RPUSH', k('l'), bytes .. '|' .. entry)
redis.call('HSET', base, 'hooks', '1')
webhookBytes(tonumber(bytes))
if redis.call('LLEN', k('l')) > MAX_LOG_ENTRIES_PER_KEY then forgetOldest(k('l'), nil) end
trimWebhooks(tonumber(budget))
return 1
