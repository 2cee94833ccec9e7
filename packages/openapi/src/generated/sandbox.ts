// generated from spec/sandbox.yaml — do not edit; run `npm run generate` (pnpm generate)
// at the repository root after changing the spec.

export interface paths {
    "/_sandbox/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Check that the sandbox is up
         * @description Answers 200 with `status: ok` and the sandbox's version once it serves requests, and 503 `store_unavailable` while its store cannot serve them (a Valkey/Redis server that is unreachable, does not answer or holds another format): a readiness probe for scripts, CI and load balancers. It needs no key (a key sent is checked as by every control, so a live key is still refused), reads and changes no key's data, and shows nothing about the store but whether it serves.
         */
        get: operations["getSandboxHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete the calling key's data
         * @description Deletes the key's payments, refunds, idempotency records, faults, webhook endpoints, events and delivery log, stops its pending deliveries, and resets its clock offset.
         */
        post: operations["resetSandbox"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/clock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the key's sandbox clock
         * @description Returns the key's sandbox time (`now`) and how far it is ahead of the server's clock. Settlement of pending payments and webhook retries follow this clock.
         */
        get: operations["getSandboxClock"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/clock/advance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Move the key's sandbox clock forward
         * @description Moves the key's clock forward by `seconds` and settles everything that has come due (pending payments, whose events are then sent) and starts the webhook retries that have come due, as if that time had passed. The clock never moves back.
         */
        post: operations["advanceSandboxClock"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/faults": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the key's injected faults
         * @description Returns the faults set for the key (latency, failures still to answer, dropped connections); an empty object when none is set.
         */
        get: operations["getSandboxFaults"];
        /**
         * Inject latency and faults into the key's /v1 requests
         * @description Replaces the key's faults. `latency_ms` delays every /v1 response; `fail_next` answers the next `count` /v1 requests with `status` (and `Retry-After` when given) without touching any data; `drop_after_commit` makes the next `count` /v1 POSTs commit their change and then drop the connection before any response is sent, as a lost response would.
         */
        put: operations["setSandboxFaults"];
        post?: never;
        /**
         * Remove the key's injected faults
         * @description Removes every fault set for the key; its next requests are answered normally, at once.
         */
        delete: operations["clearSandboxFaults"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/webhook_deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the key's webhook delivery attempts
         * @description Every attempt to deliver one of the key's events, newest first: which event and endpoint, when, the answer's status (or the error), the latency, the start of the answer's body, and when the next retry is due. The log keeps the key's last 500 attempts.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/events/{id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver one of the key's events again
         * @description Sends the event again, as a new delivery with a fresh retry schedule, to every enabled endpoint whose filter matches it. The `webhook-id` stays the event's id, so a receiver that deduplicates ignores it. The key's last 1 000 events can be redelivered.
         */
        post: operations["redeliverEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/_sandbox/inspector": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read the key's inspector snapshot
         * @description One consistent snapshot of the calling key's sandbox, as the console's live inspector shows it: the key's clock and faults, its last 50 requests (method, path, status, problem `code`, `Request-Id`, latency, and both bodies with secrets masked), its 50 newest payments with their status timelines, and its 100 newest events with every delivery attempt. It only ever shows the calling key's own data. Reading it changes nothing, and `GET /_sandbox/…` requests (this one included) are not recorded.
         */
        get: operations["getSandboxInspector"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        SandboxHealth: {
            /** @constant */
            object: "sandbox_health";
            /**
             * @description Always `ok`; a sandbox that cannot serve answers 503 or not at all.
             * @constant
             */
            status: "ok";
            /** @description The version of @payment-service/mock serving the request. */
            version: string;
            log?: components["schemas"]["SandboxLogHealth"];
        };
        /** @description The `payment-service-mock` command's log output (stdout, or stderr with `--ready-json`): a write that fails (a full disk under a redirected log, a closed pipe) is dropped and counted, never the end of the sandbox. Absent when the sandbox runs in a process of yours. */
        SandboxLogHealth: {
            /** @description Log lines dropped since the start because writing them failed. */
            dropped_lines: number;
            /** @description Why the last dropped write failed (such as `ENOSPC`), or null if none was. */
            last_error: string | null;
        };
        SandboxReset: {
            /** @constant */
            object: "sandbox_reset";
            /** @description How many payments were deleted. */
            deleted_payments: number;
        };
        AdvanceClockRequest: {
            /** @description How far to move the clock, in seconds (at most a year). */
            seconds: number;
        };
        Clock: {
            /** @constant */
            object: "sandbox_clock";
            /** @description The key's sandbox time, UTC. */
            now: components["schemas"]["Timestamp"];
            /** @description How far the key's clock runs ahead of the server's clock. */
            offset_seconds: number;
            /** @description How many pending payments this request settled (0 for a read). */
            settled_payments: number;
        };
        Faults: {
            /** @description Added to every /v1 response of the key. At most 16 of the key's requests wait at once; more are answered at once with 429 `rate_limited` and `Retry-After`. */
            latency_ms?: number;
            /** @description Answer the next `count` /v1 requests with `status`, changing no data. */
            fail_next?: {
                /** @description How many requests remain to fail. */
                count: number;
                /**
                 * @description The status to answer with.
                 * @enum {integer}
                 */
                status: 429 | 500 | 502 | 503 | 504;
                /** @description Seconds to send in `Retry-After`. */
                retry_after?: number;
            };
            /** @description The next `count` /v1 POSTs commit, then the connection drops with no response. */
            drop_after_commit?: {
                /** @description How many POSTs remain to drop. */
                count: number;
            };
        };
        WebhookDelivery: {
            /** @constant */
            object: "webhook_delivery";
            /** @description The event (`evt_…`), as sent in `webhook-id`. */
            event_id: string;
            /** @description The event's type, such as `payment.succeeded`. */
            event_type: string;
            /** @description The endpoint (`we_…`); `we_default` for the server's `--webhook-url` endpoint. */
            endpoint_id: string;
            /** @description Where the event was POSTed. */
            url: string;
            /** @description 1 for the first attempt of a delivery, 2 for its first retry, and so on. */
            attempt: number;
            /** @description When the attempt started, on the key's sandbox clock. */
            attempted_at: components["schemas"]["Timestamp"];
            /** @description The receiver's HTTP status; `null` when no answer came (see `error`). */
            status: number | null;
            /** @description `timeout` or `connection_error: …` when no answer came, `dropped: …` when the key already had 10 000 attempts waiting; `null` otherwise. */
            error: string | null;
            /** @description How long the attempt took, in real milliseconds. */
            latency_ms: number;
            /** @description The first 256 characters of the answer's body, or `null`. */
            response_body: string | null;
            /** @description When the next attempt is due on the key's clock; `null` when none follows. */
            next_retry_at: components["schemas"]["Timestamp"] | null;
        };
        WebhookDeliveryList: {
            /** @constant */
            object: "list";
            /** @description The attempts, newest first. */
            data: components["schemas"]["WebhookDelivery"][];
        };
        EventRedelivery: {
            /** @constant */
            object: "event_redelivery";
            event_id: string;
            /** @description How many endpoints the event was queued for. */
            endpoints: number;
        };
        Inspector: {
            /** @constant */
            object: "sandbox_inspector";
            clock: components["schemas"]["Clock"];
            faults: components["schemas"]["Faults"];
            /** @description The key's last 50 requests, newest first, within 64 KiB per key (the oldest go first). `GET /_sandbox/…` reads are not recorded, nor requests that fail authentication. */
            requests: components["schemas"]["RecordedRequest"][];
            /** @description The key's 50 newest payments, newest first, each with its status timeline. */
            payments: components["schemas"]["InspectedPayment"][];
            /** @description The key's 100 newest events, newest first, each with its delivery attempts. Events are made only while an endpoint listens to the key. */
            events: components["schemas"]["InspectedEvent"][];
        };
        RecordedRequest: {
            /** @constant */
            object: "recorded_request";
            /** @description The `Request-Id` the answer carried. */
            request_id: string;
            /** @description The HTTP method. */
            method: string;
            /** @description The path as sent, without the query; anything that looks like a secret is masked. */
            path: string;
            /** @description The answer's status; `null` when none was sent (a `drop_after_commit` fault dropped the connection, or the client closed it before its request body arrived). */
            status: number | null;
            /** @description The problem `code` of a 4xx/5xx answer, else `null`. */
            code: string | null;
            /** @description How long the sandbox took to answer, in real milliseconds (injected latency included). */
            latency_ms: number;
            /** @description When the request arrived, on the key's sandbox clock. */
            received_at: components["schemas"]["Timestamp"];
            /** @description The request body as sent (at most 4 096 characters), secrets masked; `null` without a body. */
            request_body: string | null;
            /** @description The answer's body (at most 4 096 characters), secrets masked; `null` without a body. */
            response_body: string | null;
            /** @description Whether a body was cut at 4 096 characters. */
            truncated: boolean;
        };
        InspectedPayment: {
            payment: components["schemas"]["Payment"];
            /** @description Every change of the payment, oldest first: its creation, then each capture, settlement, cancel and refund (at most 32; the oldest after the creation go first). */
            timeline: components["schemas"]["TimelineEntry"][];
        };
        TimelineEntry: {
            /** @description When it happened, on the key's sandbox clock. */
            at: components["schemas"]["Timestamp"];
            /**
             * @description What happened.
             * @enum {string}
             */
            change: "created" | "captured" | "settled" | "canceled" | "refunded";
            status: components["schemas"]["PaymentStatus"];
            /** @description The amount concerned, in minor units (created, captured, settled or refunded; 0 for a cancel). */
            amount: number;
        };
        InspectedEvent: {
            /** @description The event's id (the `webhook-id` of its deliveries). */
            id: string;
            type: components["schemas"]["EventType"];
            /** @description When the event was made, on the key's sandbox clock. */
            created_at: components["schemas"]["Timestamp"];
            /** @description The payment the event is about. */
            payment_id: string;
            /** @description Every logged attempt to deliver it, oldest first (the log keeps the key's last 500). */
            deliveries: components["schemas"]["WebhookDelivery"][];
        };
        Problem: {
            type: string;
            title: string;
            status: number;
            detail: string;
            code: string;
            param?: string;
            errors?: {
                param: string;
                code: string;
                message: string;
            }[];
            request_id: string;
        };
        /**
         * Format: date-time
         * @description A UTC time, exactly `YYYY-MM-DDThh:mm:ssZ`: no fractional seconds, no offset. Every time the API and the sandbox write has this form.
         * @example 2026-11-22T04:20:00Z
         */
        Timestamp: string;
        /**
         * @description `PENDING` (processing asynchronously), `AUTHORIZED` (held, awaiting capture or cancel), `SUCCEEDED` (processed successfully), `FAILED` (declined; see `failure_code`), `CANCELED` (authorization released), `REFUNDED` (fully refunded).
         * @enum {string}
         */
        PaymentStatus: "PENDING" | "AUTHORIZED" | "SUCCEEDED" | "FAILED" | "CANCELED" | "REFUNDED";
        /** @description A whole number of minor currency units (tiyn for KZT, kopecks for RUB), from 1 to 999 999 999 999. */
        Amount: number;
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
        /**
         * @description What happened: `payment.<status>` for the status the payment changed to.
         * @enum {string}
         */
        EventType: "payment.pending" | "payment.authorized" | "payment.succeeded" | "payment.failed" | "payment.canceled" | "payment.refunded";
    };
    responses: {
        /** @description An RFC 9457 problem, as in the /v1 API. */
        Problem: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/problem+json": components["schemas"]["Problem"];
            };
        };
        /** @description The key's sandbox clock. */
        Clock: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Clock"];
            };
        };
        /** @description The key's armed faults. */
        Faults: {
            headers: {
                "Request-Id": components["headers"]["Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Faults"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /**
         * @description Identifies the request; present on every response.
         * @example req_8kTq2LmN4pR7sV1x
         */
        "Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getSandboxHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The sandbox serves requests. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxHealth"];
                };
            };
            401: components["responses"]["Problem"];
            503: components["responses"]["Problem"];
        };
    };
    resetSandbox: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's sandbox is empty again. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SandboxReset"];
                };
            };
            401: components["responses"]["Problem"];
        };
    };
    getSandboxClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Clock"];
            401: components["responses"]["Problem"];
        };
    };
    advanceSandboxClock: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AdvanceClockRequest"];
            };
        };
        responses: {
            200: components["responses"]["Clock"];
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            413: components["responses"]["Problem"];
            415: components["responses"]["Problem"];
        };
    };
    getSandboxFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Faults"];
            401: components["responses"]["Problem"];
        };
    };
    setSandboxFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Faults"];
            };
        };
        responses: {
            200: components["responses"]["Faults"];
            400: components["responses"]["Problem"];
            401: components["responses"]["Problem"];
            413: components["responses"]["Problem"];
            415: components["responses"]["Problem"];
        };
    };
    clearSandboxFaults: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            200: components["responses"]["Faults"];
            401: components["responses"]["Problem"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description Only the attempts of this event. */
                event_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The delivery attempts. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryList"];
                };
            };
            401: components["responses"]["Problem"];
        };
    };
    redeliverEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The event's id (`evt_…`). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The deliveries were queued. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventRedelivery"];
                };
            };
            401: components["responses"]["Problem"];
            404: components["responses"]["Problem"];
        };
    };
    getSandboxInspector: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key's inspector snapshot. */
            200: {
                headers: {
                    "Request-Id": components["headers"]["Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Inspector"];
                };
            };
            401: components["responses"]["Problem"];
        };
    };
}
