-- When the earliest scheduled attempt is due (key's clock), or nil, after putting back the
-- attempts whose lease ended: an attempt leased by a dead instance is due again, for any
-- instance to claim.
--@include webhooks
--@reply string?
--@arg serverNow number|'' the instance's clock, or '' for the server's TIME
if not live() then return false end
releaseLeases(serverTime(serverNow))
local due = redis.call('ZRANGE', k('q'), 0, 0, 'WITHSCORES')[2]
reindex()
return due or false
