-- Every payment, oldest first, five fields each.
--@include payments
--@reply array
return payments(redis.call('ZRANGE', k('o'), 0, -1))
