-- The events kept, oldest first (each 'bytes|json').
--@include webhooks
--@reply array
return inOrder(k('vo'), k('v'))
