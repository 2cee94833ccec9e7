-- Stores the first answer of an in-flight record, if the record held is still that one: 1, or 0.
--@include records
--@reply integer
--@arg key string the Idempotency-Key
--@arg inFlightJson string the record as claimed
--@arg completedJson string the record with its answer
--@arg responseBytes number the answer's bytes
--@arg maxRecords number the most records a key keeps
--@arg budget number the key's byte budget
if not live() then return 0 end
return complete(key, inFlightJson, completedJson, responseBytes, maxRecords, budget)
