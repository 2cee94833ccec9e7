// The errors webhooks.verify throws: one base class and one subclass per failure, never with the secret.

/** Why a webhook failed verification; stable, for programs that branch on it. */
export type WebhookVerificationErrorCode =
  | 'missing_header'
  | 'invalid_signature'
  | 'timestamp_out_of_tolerance'
  | 'invalid_timestamp'
  | 'invalid_secret'
  | 'invalid_payload';

/**
 * A webhook that must not be trusted. Answer it with a 4xx (400 is usual) and do not act on it.
 * Messages never contain the secret or the signatures.
 *
 * @example
 * try {
 *   await webhooks.verify(rawBody, request.headers, secret);
 * } catch (error) {
 *   if (error instanceof WebhookVerificationError) return new Response(null, { status: 400 });
 *   throw error;
 * }
 */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  readonly code: WebhookVerificationErrorCode;

  constructor(code: WebhookVerificationErrorCode, message: string, options?: ErrorOptions) {
    super(`${code}: ${message}`, options);
    this.code = code;
  }
}

/**
 * A required header (`webhook-id`, `webhook-timestamp` or `webhook-signature`) is missing or empty.
 *
 * @example
 * error instanceof WebhookMissingHeaderError && error.header; // 'webhook-signature'
 */
export class WebhookMissingHeaderError extends WebhookVerificationError {
  override name = 'WebhookMissingHeaderError';
  readonly header: string;

  constructor(header: string) {
    super('missing_header', `the ${header} header is missing or empty`);
    this.header = header;
  }
}

/**
 * No signature in `webhook-signature` matches the body with this secret: the body was changed,
 * the secret is another endpoint's, or the request was not sent by the payment service.
 *
 * @example
 * error instanceof WebhookSignatureError; // the body or secret does not match
 */
export class WebhookSignatureError extends WebhookVerificationError {
  override name = 'WebhookSignatureError';

  constructor(message = 'no v1 signature matches the body and the secret') {
    super('invalid_signature', message);
  }
}

/**
 * `webhook-timestamp` is further from now than the tolerance (code `timestamp_out_of_tolerance`:
 * a replay, or a clock that is off), or is not a whole number of seconds (code `invalid_timestamp`).
 *
 * @example
 * error instanceof WebhookTimestampError && error.timestamp; // 1614265330
 */
export class WebhookTimestampError extends WebhookVerificationError {
  override name = 'WebhookTimestampError';
  /** The header's value in seconds, or `undefined` when it is not a number. */
  readonly timestamp: number | undefined;

  constructor(message: string, timestamp?: number) {
    super(timestamp === undefined ? 'invalid_timestamp' : 'timestamp_out_of_tolerance', message);
    this.timestamp = timestamp;
  }
}

/**
 * The secret is not a `whsec_<base64>` string (or its base64 part alone).
 *
 * @example
 * error instanceof WebhookSecretError; // copy the secret again from the endpoint's create answer
 */
export class WebhookSecretError extends WebhookVerificationError {
  override name = 'WebhookSecretError';

  constructor(message = 'the secret must be whsec_ followed by base64 (as shown at registration)') {
    super('invalid_secret', message);
  }
}

/**
 * The signature is valid but the body is not a JSON event envelope.
 *
 * @example
 * error instanceof WebhookPayloadError;
 */
export class WebhookPayloadError extends WebhookVerificationError {
  override name = 'WebhookPayloadError';

  constructor(message: string, options?: ErrorOptions) {
    super('invalid_payload', message, options);
  }
}
