-- Deletes everything of the account (a tombstone keeps late writes out); answers how many
-- payments it held.
--@include forget
--@reply integer
if not redis.call('HGET', base, 'gen') then return 0 end
return deleteAccount(true)
