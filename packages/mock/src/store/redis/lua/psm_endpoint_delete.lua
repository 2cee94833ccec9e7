-- Deletes an endpoint. Answers 1 when there was one.
--@include account
--@reply integer
--@arg id string the endpoint's id
if not live() then return 0 end
if redis.call('HDEL', k('e'), id) == 0 then return 0 end
redis.call('LREM', k('eo'), 0, id)
return 1
