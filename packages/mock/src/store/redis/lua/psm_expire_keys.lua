-- Drops the records expired on the key's clock.
--@include records
--@reply integer
--@arg accountNow number the key's clock (ms)
if live() then expireRecords(accountNow) end
return 1
