// The Standard Webhooks specification's published signing test vector, shared by the webhook tests.

// The Standard Webhooks specification's published test vector: standard-webhooks/standard-webhooks,
// libraries/javascript/src/webhook.test.ts, test "sign function works" (commit 10d3e46d).
/** The vector: secret, message id, timestamp, body and the expected signature. */
export const standardVector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
