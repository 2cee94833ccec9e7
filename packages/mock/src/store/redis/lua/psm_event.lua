-- Keeps an event for redelivery (the oldest go past MAX_EVENTS_PER_KEY or the webhook budget).
--@include webhooks
--@reply integer
--@arg id string the event's id
--@arg bytes number its bytes
--@arg json string its record
--@arg budget number the key's webhook budget
if not writable() then return 0 end
local old = redis.call('HGET', k('v'), id)
if old then webhookBytes(-(sized(old))) else redis.call('RPUSH', k('vo'), id) end
redis.call('HSET', k('v'), id, bytes .. '|' .. json)
redis.call('HSET', base, 'hooks', '1')
webhookBytes(tonumber(bytes))
if redis.call('LLEN', k('vo')) > MAX_EVENTS_PER_KEY then forgetOldest(k('vo'), k('v')) end
trimWebhooks(tonumber(budget))
return 1
