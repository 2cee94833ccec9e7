// generated from spec/openapi.yaml — do not edit; run `npm run generate` (pnpm generate)
// at the repository root after changing the spec.

/** Every error code of the API: its HTTP status, title and meaning (`ErrorCode`'s `x-error-codes`). */
export const errorCodes = {
  "invalid_request": {
    "status": 400,
    "title": "Invalid request",
    "meaning": "A field is missing, of the wrong type, out of range or unknown; `errors` lists every field problem."
  },
  "invalid_json": {
    "status": 400,
    "title": "Invalid JSON",
    "meaning": "The body is not valid JSON."
  },
  "missing_api_key": {
    "status": 401,
    "title": "Missing API key",
    "meaning": "No `Authorization: Bearer` key was sent."
  },
  "invalid_api_key": {
    "status": 401,
    "title": "Invalid API key",
    "meaning": "The key is not a well-formed `sk_test_` key."
  },
  "live_key_in_sandbox": {
    "status": 401,
    "title": "Live key used in the sandbox",
    "meaning": "An `sk_live_` key was sent to the sandbox."
  },
  "not_found": {
    "status": 404,
    "title": "Not found",
    "meaning": "No such resource for this key (payment, webhook endpoint or event), or no such path."
  },
  "method_not_allowed": {
    "status": 405,
    "title": "Method not allowed",
    "meaning": "A known path with another method; `Allow` lists the methods."
  },
  "invalid_state": {
    "status": 409,
    "title": "Invalid state",
    "meaning": "The payment's status forbids the action (the detail names the status and the allowed actions)."
  },
  "idempotency_key_in_use": {
    "status": 409,
    "title": "Idempotency key in use",
    "meaning": "A request with the same `Idempotency-Key` is still in flight."
  },
  "webhook_endpoint_limit_reached": {
    "status": 409,
    "title": "Webhook endpoint limit reached",
    "meaning": "The key already has the maximum number of webhook endpoints (16)."
  },
  "body_too_large": {
    "status": 413,
    "title": "Body too large",
    "meaning": "The body is over 64 KiB."
  },
  "unsupported_media_type": {
    "status": 415,
    "title": "Unsupported media type",
    "meaning": "The body is not `application/json`."
  },
  "idempotency_key_reused": {
    "status": 422,
    "title": "Idempotency key reused",
    "meaning": "The `Idempotency-Key` was used with another method, path or body (the detail says which)."
  },
  "rate_limited": {
    "status": 429,
    "title": "Too many requests",
    "meaning": "Too many requests; wait `Retry-After` seconds (fault injection only, in the sandbox)."
  },
  "internal_error": {
    "status": 500,
    "title": "Internal error",
    "meaning": "The service failed; never caused by client input. Safe to retry with the same `Idempotency-Key`."
  },
  "bad_gateway": {
    "status": 502,
    "title": "Bad gateway",
    "meaning": "An upstream failed (fault injection only, in the sandbox). Safe to retry."
  },
  "service_unavailable": {
    "status": 503,
    "title": "Service unavailable",
    "meaning": "The service is unavailable (fault injection only, in the sandbox). Safe to retry."
  },
  "sandbox_full": {
    "status": 503,
    "title": "Sandbox full",
    "meaning": "The sandbox as a whole is out of its memory budget; retry after `Retry-After` seconds."
  },
  "store_unavailable": {
    "status": 503,
    "title": "Store unavailable",
    "meaning": "The sandbox cannot reach or use its store now (its data directory's disk is full or failing, or its Valkey/Redis server is unreachable, restarting or too slow); no answer is given for a change until it is stored, and nothing is half-written. Retry after `Retry-After` seconds with the same `Idempotency-Key`."
  },
  "gateway_timeout": {
    "status": 504,
    "title": "Gateway timeout",
    "meaning": "An upstream timed out (fault injection only, in the sandbox). Safe to retry."
  },
  "host_not_allowed": {
    "status": 421,
    "title": "Host not allowed",
    "meaning": "The request's `Host` is not a name this sandbox answers (a sandbox on a loopback address answers loopback names only, so a web page cannot reach it through DNS rebinding); start it with `--allowed-hosts` to add names."
  }
} as const;

/** A problem's `code`. */
export type ErrorCode = keyof typeof errorCodes;

/** The sandbox test tokens and what each does (the token property's `x-test-tokens`). */
export const testTokens = [
  {
    "token": "tok_test_success",
    "description": "`SUCCEEDED`, or `AUTHORIZED` when `capture` is `false`"
  },
  {
    "token": "tok_test_declined",
    "description": "`FAILED`, `failure_code` `card_declined`",
    "failure_code": "card_declined",
    "failure_message": "The card was declined by the issuer."
  },
  {
    "token": "tok_test_insufficient_funds",
    "description": "`FAILED`, `failure_code` `insufficient_funds`",
    "failure_code": "insufficient_funds",
    "failure_message": "The card has insufficient funds for this amount."
  },
  {
    "token": "tok_test_expired_card",
    "description": "`FAILED`, `failure_code` `expired_card`",
    "failure_code": "expired_card",
    "failure_message": "The card has expired."
  },
  {
    "token": "tok_test_processing_error",
    "description": "`FAILED`, `failure_code` `processing_error`",
    "failure_code": "processing_error",
    "failure_message": "An error occurred while processing the card. Try again later."
  },
  {
    "token": "tok_test_pending",
    "description": "`PENDING`, then after the settlement delay `SUCCEEDED` (or `AUTHORIZED` when `capture` is `false`)",
    "pending": true
  },
  {
    "token": "tok_test_pending_declined",
    "description": "`PENDING`, then after the settlement delay `FAILED` (`card_declined`)",
    "pending": true,
    "failure_code": "card_declined",
    "failure_message": "The card was declined by the issuer."
  }
] as const;
