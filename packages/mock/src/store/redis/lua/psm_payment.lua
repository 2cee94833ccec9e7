-- One payment: id, json, meta, changes, sequence (none when not held).
--@include payments
--@reply array
--@arg id string the payment's id
return payments({ id })
