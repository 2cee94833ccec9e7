// generated from spec/sandbox.yaml — do not edit; run `npm run generate` (pnpm generate)
// at the repository root after changing the spec.

export interface paths {
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
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
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
            /** @description Added to every /v1 response of the key. */
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
}
