-- Keeps a new event for redelivery (the oldest go past MAX_EVENTS_PER_KEY or the webhook
-- budget). Answers 1; 0 when the account was reset since; 2, keeping nothing, when the key
-- keeps an event with this id (its id drawn again).
--@include webhooks
--@reply integer
--@arg id string the event's id
--@arg bytes number its bytes
--@arg json string its record
--@arg budget number the key's webhook budget
if not writable() then return 0 end
if redis.call('HEXISTS', k('v'), id) == 1 then return 2 end
redis.call('RPUSH', k('vo'), id)
redis.call('HSET', k('v'), id, bytes .. '|' .. json)
redis.call('HSET', base, 'hooks', '1')
webhookBytes(tonumber(bytes))
if redis.call('LLEN', k('vo')) > MAX_EVENTS_PER_KEY then forgetOldest(k('vo'), k('v')) end
trimWebhooks(tonumber(budget))
return 1
