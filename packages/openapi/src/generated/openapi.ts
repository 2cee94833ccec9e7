// generated from spec/openapi.yaml — do not edit; run `npm run generate` (pnpm generate)
// at the repository root after changing the spec.

export interface paths {
    "/v1/payments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List payments
         * @description Lists the calling key's payments, newest first, with cursor pagination: pass the last payment's `id` as `starting_after` to get the next page while `has_more` is `true`.
         */
        get: operations["listPayments"];
        put?: never;
        /**
         * Create a payment
         * @description Creates a payment in one request. With `capture: true` and a success test token the returned payment has status `SUCCEEDED`. A decline is a processed request: it returns a payment with status `FAILED`, not an HTTP error.
         */
        post: operations["createPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        /**
         * Retrieve a payment
         * @description Returns the payment with this `id` as it is now. Each key sees only its own payments: an id of another key's payment answers `404 not_found`, like an id that does not exist.
         */
        get: operations["retrievePayment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/capture": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Capture an authorized payment
         * @description Captures an `AUTHORIZED` payment, fully or (with `amount`) partially; the payment becomes `SUCCEEDED` and `amount_captured` records what was captured. Any other status is a 409 `invalid_state`.
         */
        post: operations["capturePayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an authorized payment
         * @description Releases an `AUTHORIZED` payment; it becomes `CANCELED`. Any other status is a 409 `invalid_state`. The body, when sent, must be an empty JSON object.
         */
        post: operations["cancelPayment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/payments/{id}/refunds": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refund a payment
         * @description Refunds a `SUCCEEDED` payment, fully or (with `amount`) partially. `amount_refunded` on the payment adds up the refunds; when it reaches `amount_captured` the payment becomes `REFUNDED`. Refunding more than remains is a 400; any other status is a 409 `invalid_state`.
         */
        post: operations["createRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List webhook endpoints
         * @description Lists the key's webhook endpoints, oldest first. Secrets are never shown here. A key holds at most 16 endpoints, so one page holds them all.
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Register a webhook endpoint
         * @description Registers a URL that receives the key's events (all of them, or only those listed in `events`). The answer holds the endpoint's signing `secret` (`whsec_…`): it is shown only here, so store it at once; listing never shows it again. A key holds at most 16 endpoints: registering a 17th answers `409 webhook_endpoint_limit_reached` (delete one first).
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook_endpoints/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The webhook endpoint's identifier (`we_…`).
                 * @example we_4fQp8LmN2xR7sT9vW1yZ3aBc
                 */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook endpoint
         * @description Deletes the endpoint; it receives no further events, and its pending retries are dropped.
         */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "payment.pending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.pending
         * @description The payment became `PENDING`: it is being processed asynchronously. Sent to every enabled endpoint whose `events` filter includes `payment.pending`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.
         */
        post: operations["paymentPending"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.authorized": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.authorized
         * @description The payment became `AUTHORIZED`: held, awaiting capture or cancel. Sent to every enabled endpoint whose `events` filter includes `payment.authorized`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.
         */
        post: operations["paymentAuthorized"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.succeeded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.succeeded
         * @description The payment became `SUCCEEDED`: processed successfully (created with capture, captured, or settled). Sent to every enabled endpoint whose `events` filter includes `payment.succeeded`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.
         */
        post: operations["paymentSucceeded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.failed
         * @description The payment became `FAILED`: declined; see `failure_code`. Sent to every enabled endpoint whose `events` filter includes `payment.failed`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.
         */
        post: operations["paymentFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.canceled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.canceled
         * @description The payment became `CANCELED`: its authorization was released. Sent to every enabled endpoint whose `events` filter includes `payment.canceled`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.
         */
        post: operations["paymentCanceled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payment.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * payment.refunded
         * @description The payment became `REFUNDED`: its refunds reached the captured amount. Sent to every enabled endpoint whose `events` filter includes `payment.refunded`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.
         */
        post: operations["paymentRefunded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        /** @description A whole number of minor currency units (tiyn for KZT, kopecks for RUB), from 1 to 999 999 999 999. */
        Amount: number;
        /**
         * @description A three-letter uppercase currency code; `KZT` and `RUB` are the codes used with this interface.
         * @example KZT
         * @example RUB
         */
        Currency: string;
        /**
         * @description `PENDING` (processing asynchronously), `AUTHORIZED` (held, awaiting capture or cancel), `SUCCEEDED` (processed successfully), `FAILED` (declined; see `failure_code`), `CANCELED` (authorization released), `REFUNDED` (fully refunded).
         * @enum {string}
         */
        PaymentStatus: "PENDING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "CANCELED" | "REFUNDED";
        /** @description The payment instrument. */
        PaymentMethod: {
            /**
             * @description `token` selects payment by token.
             * @enum {string}
             */
            type: "token";
            /** @description A payment token. Sandbox test tokens begin with `tok_test_`; the sandbox accepts the tokens listed in `x-test-tokens` (the one source of the test-token table: the mock's token behaviour, the CLI banner and every README table are generated from it or checked against it). */
            token: string;
        };
        /** @description The fields of a payment-creation request. */
        CreatePaymentRequest: {
            amount: components["schemas"]["Amount"];
            currency: components["schemas"]["Currency"];
            /**
             * @description When `true` (the default), the payment is created and captured in one request; `false` only authorizes it.
             * @default true
             */
            capture?: boolean;
            /** @description Free text describing the payment. */
            description?: string;
            payment_method: components["schemas"]["PaymentMethod"];
        };
        /** @description Capture options. */
        CapturePaymentRequest: {
            amount?: components["schemas"]["Amount"];
        };
        /** @description Cancellation takes no options; the body, when sent, is an empty object. */
        CancelPaymentRequest: Record<string, never>;
        /** @description Refund options. */
        CreateRefundRequest: {
            amount?: components["schemas"]["Amount"];
        };
        /** @description A payment record. */
        Payment: {
            /** @description Payment identifier; `pay_` followed by an opaque string. */
            id: string;
            /**
             * @description Always `payment`.
             * @constant
             */
            object: "payment";
            status: components["schemas"]["PaymentStatus"];
            /** @description The amount as sent in the request. */
            amount: components["schemas"]["Amount"];
            /** @description The currency code as sent in the request. */
            currency: string;
            /** @description When the payment was created, UTC, exactly `YYYY-MM-DDThh:mm:ssZ`. */
            created_at: components["schemas"]["Timestamp"];
            /** @description Whether the payment was created with capture in the same request. */
            capture: boolean;
            /** @description The description sent in the request, or `null`. */
            description: string | null;
            /** @description How much has been captured (0 until the payment is captured). */
            amount_captured: number;
            /** @description The sum of the payment's refunds; never more than `amount_captured`. */
            amount_refunded: number;
            /** @description Why a `FAILED` payment was declined (`card_declined`, `insufficient_funds`, `expired_card`, `processing_error`); `null` otherwise. */
            failure_code: string | null;
            /** @description A human-readable explanation of `failure_code`; `null` when the payment did not fail. */
            failure_message: string | null;
        };
        /** @description A page of payments, newest first. */
        PaymentList: {
            /**
             * @description Always `list`.
             * @constant
             */
            object: "list";
            /** @description The payments of this page. */
            data: components["schemas"]["Payment"][];
            /** @description Whether more payments follow the last one in `data`. */
            has_more: boolean;
        };
        /** @description A refund of all or part of a payment. */
        Refund: {
            /** @description Refund identifier; `ref_` followed by an opaque string. */
            id: string;
            /**
             * @description Always `refund`.
             * @constant
             */
            object: "refund";
            /** @description The refunded payment. */
            payment_id: string;
            /** @description The refunded amount, in the payment's minor units. */
            amount: components["schemas"]["Amount"];
            /** @description The payment's currency. */
            currency: string;
            /**
             * @description The refund's status; sandbox refunds succeed at once.
             * @enum {string}
             */
            status: "SUCCEEDED";
            /** @description When the refund was created, UTC, `YYYY-MM-DDThh:mm:ssZ`. */
            created_at: components["schemas"]["Timestamp"];
        };
        /**
         * Format: date-time
         * @description A UTC time, exactly `YYYY-MM-DDThh:mm:ssZ`: no fractional seconds, no offset. Every time the API and the sandbox write has this form.
         * @example 2026-11-22T04:20:00Z
         */
        Timestamp: string;
        /**
         * @description A stable, machine-readable snake_case error code. `x-error-codes` gives each code's HTTP status, title and meaning: the one source of the mock's code → status table, the SDK's code → error-class mapping (checked) and the README's error table (checked).
         * @enum {string}
         */
        ErrorCode: "invalid_request" | "invalid_json" | "missing_api_key" | "invalid_api_key" | "live_key_in_sandbox" | "not_found" | "method_not_allowed" | "invalid_state" | "idempotency_key_in_use" | "webhook_endpoint_limit_reached" | "body_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "rate_limited" | "internal_error" | "bad_gateway" | "service_unavailable" | "sandbox_full" | "store_unavailable" | "gateway_timeout" | "host_not_allowed";
        /** @description An RFC 9457 problem details document. */
        Problem: {
            /**
             * Format: uri-reference
             * @description A URI naming the problem type: `urn:payment-service:problem:<code>`.
             */
            type: string;
            /** @description A short summary of the problem type. */
            title: string;
            /** @description The HTTP status code. */
            status: number;
            /** @description What went wrong in this request, and how to fix it. */
            detail: string;
            code: components["schemas"]["ErrorCode"];
            /** @description The request field at fault, as a dotted path, when there is one. */
            param?: string;
            /** @description The field problems of the request, not only the first: at most 10, in the order they were found; `errors_omitted` counts the ones left out. */
            errors?: components["schemas"]["FieldError"][];
            /** @description How many field problems were found beyond the ones listed in `errors` (absent when none were left out). */
            errors_omitted?: number;
            /** @description The request's id, as in the Request-Id header. */
            request_id: string;
        };
        /**
         * @description What happened: `payment.<status>` for the status the payment changed to.
         * @enum {string}
         */
        EventType: "payment.pending" | "payment.authorized" | "payment.succeeded" | "payment.failed" | "payment.canceled" | "payment.refunded";
        /** @description A notification that a payment's status changed, with the payment as it was right after the change. */
        Event: {
            /** @description Event identifier; `evt_` followed by an opaque string. Also sent as `webhook-id`. */
            id: string;
            /**
             * @description Always `event`.
             * @constant
             */
            object: "event";
            type: components["schemas"]["EventType"];
            /** @description When the status changed, UTC, `YYYY-MM-DDThh:mm:ssZ`. */
            created_at: components["schemas"]["Timestamp"];
            /** @description The object the event is about. */
            data: {
                object: components["schemas"]["Payment"];
            };
        };
        /** @description The `payment.pending` event. */
        PaymentPendingEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "payment.pending";
        };
        /** @description The `payment.authorized` event. */
        PaymentAuthorizedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "payment.authorized";
        };
        /** @description The `payment.succeeded` event. */
        PaymentSucceededEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "payment.succeeded";
        };
        /** @description The `payment.failed` event. */
        PaymentFailedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "payment.failed";
        };
        /** @description The `payment.canceled` event. */
        PaymentCanceledEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "payment.canceled";
        };
        /** @description The `payment.refunded` event. */
        PaymentRefundedEvent: components["schemas"]["Event"] & {
            /** @constant */
            type: "payment.refunded";
        };
        /** @description A webhook endpoint to register. */
        CreateWebhookEndpointRequest: {
            /**
             * Format: uri
             * @description The http(s) URL that receives the events with a POST: an absolute URI as RFC 3986 defines it (`format: uri`), so ASCII only. Write an international host name in its punycode form (`https://xn--bcher-kva.example/hooks`, not `https://bücher.example/hooks`) and percent-encode any other character outside ASCII. The scheme is case-insensitive, the port must be 0 to 65535, and credentials (`user:password@`) are refused.
             */
            url: string;
            /** @description The event types to send; omit it to receive every event type. */
            events?: components["schemas"]["EventType"][];
        };
        /** @description A URL that receives the key's events. */
        WebhookEndpoint: {
            /** @description Endpoint identifier; `we_` followed by an opaque string. */
            id: string;
            /**
             * @description Always `webhook_endpoint`.
             * @constant
             */
            object: "webhook_endpoint";
            /** @description The URL events are POSTed to. */
            url: string;
            /** @description The event types sent to this endpoint; `null` means every type. */
            events: components["schemas"]["EventType"][] | null;
            /**
             * @description `disabled` once the endpoint answered `410 Gone`: it receives nothing more.
             * @enum {string}
             */
            status: "enabled" | "disabled";
            /** @description When the endpoint was registered, UTC, `YYYY-MM-DDThh:mm:ssZ`. */
            created_at: components["schemas"]["Timestamp"];
        };
        /** @description A newly registered endpoint, with the signing secret that is shown only once. */
        WebhookEndpointWithSecret: components["schemas"]["WebhookEndpoint"] & {
            /** @description The signing secret, `whsec_` followed by base64: the key is the decoded bytes. Shown only in the create answer. */
            secret: string;
        };
        /** @description Every webhook endpoint of the key, oldest first. */
        WebhookEndpointList: {
            /**
             * @description Always `list`.
             * @constant
             */
            object: "list";
            /** @description The endpoints, without their secrets. */
            data: components["schemas"]["WebhookEndpoint"][];
            /** @description Always `false`. */
            has_more: boolean;
        };
        /** @description The marker of a deleted endpoint. */
        DeletedWebhookEndpoint: {
            /** @description The deleted endpoint's id. */
            id: string;
            /**
             * @description Always `webhook_endpoint`.
             * @constant
             */
            object: "webhook_endpoint";
            /**
             * @description Always `true`.
             * @constant
             */
            deleted: true;
        };
        /** @description One problem with one request field. */
        FieldError: {
            /** @description The field, as a dotted path (`payment_method.token`); empty for the body itself. */
            param: string;
            /** @description What is wrong: `required`, `type`, `minimum`, `unknown_field`, `invalid_value`, … */
            code: string;
            /** @description What was expected, in words. */
            message: string;
        };
    };
    responses: {
        /** @description Any 2xx acknowledges the event. `410 Gone` disables the endpoint; any other status, a timeout (10 s) or a connection error is retried with exponential backoff and jitter. */
        WebhookAcknowledged: {
            headers: {
                [name: string]: unknown;
            };
            content?: never;
        };
        /** @description The payment. Its body is documented; the status code is not: the spec declares `201 Created` (our inference, the HTTP convention for a creation), and clients accept any 2xx. */
        Payment: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Payment"];
            };
        };
        /** @description The payment as it is now. */
        InferredPayment: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Payment"];
            };
        };
        /** @description The payment, captured (`SUCCEEDED`). */
        CapturedPayment: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Payment"];
            };
        };
        /** @description The payment, canceled (`CANCELED`): the authorization is released. */
        CanceledPayment: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Payment"];
            };
        };
        /** @description The request is malformed: `invalid_json` or `invalid_request` (every field problem is listed in `errors`). */
        BadRequest: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The key is missing (`missing_api_key`), malformed or unknown (`invalid_api_key`), or a live key used in the sandbox (`live_key_in_sandbox`). */
        Unauthorized: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description No resource with this id (a payment, a webhook endpoint) belongs to the calling key (`not_found`). */
        NotFound: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The payment's status does not allow the action (`invalid_state`), a request with the same Idempotency-Key is still in flight (`idempotency_key_in_use`), or the key already has 16 webhook endpoints (`webhook_endpoint_limit_reached`, on creating an endpoint). */
        Conflict: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request body is larger than the limit (`body_too_large`). */
        PayloadTooLarge: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The request body is not sent as `application/json` (`unsupported_media_type`). */
        UnsupportedMediaType: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The Idempotency-Key was used before with another method, path or body (`idempotency_key_reused`). */
        IdempotencyKeyReused: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description Too many requests (`rate_limited`); retry after `Retry-After` seconds. */
        RateLimited: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The service failed (`internal_error`), a gateway failed or timed out (`bad_gateway`, `gateway_timeout`), or the service is unavailable (`service_unavailable`); never caused by client input. Safe to retry with the same Idempotency-Key. */
        ServerError: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
    };
    parameters: {
        /**
         * @description The webhook endpoint's identifier (`we_…`).
         * @example we_4fQp8LmN2xR7sT9vW1yZ3aBc
         */
        WebhookEndpointId: string;
        /**
         * @description The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.
         * @example evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a
         */
        WebhookId: string;
        /**
         * @description When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).
         * @example 1795320000
         */
        WebhookTimestamp: string;
        /**
         * @description Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.
         * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
         */
        WebhookSignature: string;
        /**
         * @description Makes a POST safe to retry. The first response for a key (per API key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another method, path or body is a 422; the same key while the first request is in flight is a 409. Requests refused before processing (400, 401, 413, 415), rate-limited (429) or failed by the server (5xx) are not stored, so a retry with the same key runs the request again.
         * @example 5f0c6a3e-8d1b-4c2e-9a7f-2b3c4d5e6f70
         */
        IdempotencyKey: string;
        /**
         * @description The payment's identifier.
         * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
         */
        PaymentId: string;
        /**
         * @description How many payments a page holds, 1 to 100 (default 10).
         * @example 10
         */
        Limit: number;
        /**
         * @description The id of one of the calling key's payments; the page starts with the payment listed after it. Any other id (unknown, or another key's) answers `400 invalid_request` on `starting_after`.
         * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
         */
        StartingAfter: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description Identifies the request in logs and support requests; present on every response.
         * @example req_8kTq2LmN4pR7sV1x
         */
        "Request-Id": string;
        /**
         * @description `true` when the response is a stored response replayed for a repeated Idempotency-Key.
         * @example true
         */
        "Idempotent-Replayed": "true";
        /**
         * @description Seconds to wait before trying again.
         * @example 2
         */
        "Retry-After": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPayments: {
        parameters: {
            query?: {
                /**
                 * @description How many payments a page holds, 1 to 100 (default 10).
                 * @example 10
                 */
                limit?: components["parameters"]["Limit"];
                /**
                 * @description The id of one of the calling key's payments; the page starts with the payment listed after it. Any other id (unknown, or another key's) answers `400 invalid_request` on `starting_after`.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                starting_after?: components["parameters"]["StartingAfter"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of payments. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PaymentList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    createPayment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a POST safe to retry. The first response for a key (per API key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another method, path or body is a 422; the same key while the first request is in flight is a 409. Requests refused before processing (400, 401, 413, 415), rate-limited (429) or failed by the server (5xx) are not stored, so a retry with the same key runs the request again.
                 * @example 5f0c6a3e-8d1b-4c2e-9a7f-2b3c4d5e6f70
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreatePaymentRequest"];
            };
        };
        responses: {
            201: components["responses"]["Payment"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    retrievePayment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["InferredPayment"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    capturePayment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a POST safe to retry. The first response for a key (per API key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another method, path or body is a 422; the same key while the first request is in flight is a 409. Requests refused before processing (400, 401, 413, 415), rate-limited (429) or failed by the server (5xx) are not stored, so a retry with the same key runs the request again.
                 * @example 5f0c6a3e-8d1b-4c2e-9a7f-2b3c4d5e6f70
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CapturePaymentRequest"];
            };
        };
        responses: {
            200: components["responses"]["CapturedPayment"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    cancelPayment: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a POST safe to retry. The first response for a key (per API key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another method, path or body is a 422; the same key while the first request is in flight is a 409. Requests refused before processing (400, 401, 413, 415), rate-limited (429) or failed by the server (5xx) are not stored, so a retry with the same key runs the request again.
                 * @example 5f0c6a3e-8d1b-4c2e-9a7f-2b3c4d5e6f70
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CancelPaymentRequest"];
            };
        };
        responses: {
            200: components["responses"]["CanceledPayment"];
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    createRefund: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a POST safe to retry. The first response for a key (per API key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another method, path or body is a 422; the same key while the first request is in flight is a 409. Requests refused before processing (400, 401, 413, 415), rate-limited (429) or failed by the server (5xx) are not stored, so a retry with the same key runs the request again.
                 * @example 5f0c6a3e-8d1b-4c2e-9a7f-2b3c4d5e6f70
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path: {
                /**
                 * @description The payment's identifier.
                 * @example pay_2x7Qk9LmN4pR8sT1vW3yZ5aB
                 */
                id: components["parameters"]["PaymentId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["CreateRefundRequest"];
            };
        };
        responses: {
            /** @description The refund. */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Refund"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every webhook endpoint of the key. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Makes a POST safe to retry. The first response for a key (per API key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another method, path or body is a 422; the same key while the first request is in flight is a 409. Requests refused before processing (400, 401, 413, 415), rate-limited (429) or failed by the server (5xx) are not stored, so a retry with the same key runs the request again.
                 * @example 5f0c6a3e-8d1b-4c2e-9a7f-2b3c4d5e6f70
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateWebhookEndpointRequest"];
            };
        };
        responses: {
            /** @description The endpoint, with its signing secret (shown only in this answer). */
            201: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["IdempotencyKeyReused"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description The webhook endpoint's identifier (`we_…`).
                 * @example we_4fQp8LmN2xR7sT9vW1yZ3aBc
                 */
                id: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint was deleted. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedWebhookEndpoint"];
                };
            };
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["RateLimited"];
            500: components["responses"]["ServerError"];
            502: components["responses"]["ServerError"];
            503: components["responses"]["ServerError"];
            504: components["responses"]["ServerError"];
        };
    };
    paymentPending: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.
                 * @example evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).
                 * @example 1795320000
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event, as raw JSON; verify the signature over these exact bytes before parsing. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentPendingEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
        };
    };
    paymentAuthorized: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.
                 * @example evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).
                 * @example 1795320000
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event, as raw JSON; verify the signature over these exact bytes before parsing. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentAuthorizedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
        };
    };
    paymentSucceeded: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.
                 * @example evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).
                 * @example 1795320000
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event, as raw JSON; verify the signature over these exact bytes before parsing. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentSucceededEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
        };
    };
    paymentFailed: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.
                 * @example evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).
                 * @example 1795320000
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event, as raw JSON; verify the signature over these exact bytes before parsing. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentFailedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
        };
    };
    paymentCanceled: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.
                 * @example evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).
                 * @example 1795320000
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event, as raw JSON; verify the signature over these exact bytes before parsing. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentCanceledEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
        };
    };
    paymentRefunded: {
        parameters: {
            query?: never;
            header: {
                /**
                 * @description The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.
                 * @example evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a
                 */
                "webhook-id": components["parameters"]["WebhookId"];
                /**
                 * @description When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).
                 * @example 1795320000
                 */
                "webhook-timestamp": components["parameters"]["WebhookTimestamp"];
                /**
                 * @description Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.
                 * @example v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=
                 */
                "webhook-signature": components["parameters"]["WebhookSignature"];
            };
            path?: never;
            cookie?: never;
        };
        /** @description The event, as raw JSON; verify the signature over these exact bytes before parsing. */
        requestBody: {
            content: {
                "application/json": components["schemas"]["PaymentRefundedEvent"];
            };
        };
        responses: {
            "2XX": components["responses"]["WebhookAcknowledged"];
        };
    };
}
