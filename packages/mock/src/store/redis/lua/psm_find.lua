-- The account's state (see state.lua), or nil when it holds nothing; with a payment id, the
-- payment's five fields after it (none when not held).
--@include state payments
--@reply array?
--@arg now number|'' the instance's clock (ms), or '' for the server's TIME
--@arg paymentId string a payment to read with it, or ''
local s = state(now)
if s and paymentId ~= '' then
  for _, field in ipairs(payments({ paymentId })) do table.insert(s, field) end
end
return s
