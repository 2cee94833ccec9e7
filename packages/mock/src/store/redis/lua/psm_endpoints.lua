-- The endpoints, oldest first.
--@include webhooks
--@reply array
return inOrder(k('eo'), k('e'))
