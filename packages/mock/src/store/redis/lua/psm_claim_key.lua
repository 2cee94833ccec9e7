-- Set-if-absent of an Idempotency-Key's in-flight record, after expiring the key's due records:
-- nil when stored, else the record held (one in flight for an instance that stopped beating is
-- dropped first), or CLOSED (the account was reset since).
--@include records
--@reply string?
--@arg key string the Idempotency-Key
--@arg json string its record, in flight
--@arg bytes number the record's bytes
--@arg accountNow number the key's clock (ms)
--@arg expiresAt number when the record expires (key's clock)
--@arg serverExpiresAt number when it expires (server's clock)
--@arg maxRecords number the most records a key keeps
--@arg budget number the key's byte budget
--@arg owner string the instance taking it
--@arg serverNow number|'' the instance's clock, or '' for the server's TIME
if not writable() then return CLOSED end
return claim(key, json, bytes, accountNow, expiresAt, serverExpiresAt, maxRecords, budget, owner, serverNow)
