// generated from spec/openapi.yaml — do not edit; run `npm run generate` (pnpm generate)
// at the repository root after changing the spec.

export const openapiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Payment Service API",
    "version": "0.1.0",
    "summary": "The payment service's HTTP interface, as documented by the provider and modelled where it is not.",
    "description": "The single source of truth for the SDK, the mock sandbox and the contract tests.\n\nEvery operation, response, header, parameter and schema carries `x-provenance`:\n`documented` elements restate the provider's interface document (the section is in\n`x-provenance-ref`); `inferred` elements are our model of a part the document leaves\n\"not shown\" (the reason is in `x-provenance-note`). A failed documented check is a bug;\na failed inferred check is a model to correct.\n\n## Sandbox test tokens\n\n| token | outcome |\n|---|---|\n| `tok_test_success` | `SUCCEEDED`, or `AUTHORIZED` when `capture` is `false` |\n| `tok_test_declined` | `FAILED`, `failure_code` `card_declined` |\n| `tok_test_insufficient_funds` | `FAILED`, `failure_code` `insufficient_funds` |\n| `tok_test_expired_card` | `FAILED`, `failure_code` `expired_card` |\n| `tok_test_processing_error` | `FAILED`, `failure_code` `processing_error` |\n| `tok_test_pending` | `PENDING`, then after the settlement delay `SUCCEEDED` (or `AUTHORIZED` when `capture` is `false`) |\n| `tok_test_pending_declined` | `PENDING`, then after the settlement delay `FAILED` (`card_declined`) |\n",
    "contact": {
      "name": "Payment service developer kit maintainers",
      "url": "https://github.com/payment-service/payment-service-kit/issues"
    },
    "license": {
      "name": "MIT",
      "identifier": "MIT"
    }
  },
  "servers": [
    {
      "url": "http://localhost:4010",
      "description": "The local mock sandbox (`npm run sandbox`). The provider's sandbox has its own base address, given in its dashboard; every path begins with `/v1`."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "tags": [
    {
      "name": "Payments",
      "description": "Create, read, capture, cancel and refund payments."
    },
    {
      "name": "Webhooks",
      "description": "Register the URLs that receive signed notifications of payment status changes (see the `webhooks` section for the events themselves)."
    }
  ],
  "paths": {
    "/v1/payments": {
      "post": {
        "operationId": "createPayment",
        "summary": "Create a payment",
        "description": "Creates a payment in one request. With `capture: true` and a success test token the returned payment has status `SUCCEEDED`. A decline is a processed request: it returns a payment with status `FAILED`, not an HTTP error.",
        "tags": [
          "Payments"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "4.1",
        "parameters": [
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": true,
          "x-provenance": "documented",
          "x-provenance-ref": "4.1",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreatePaymentRequest"
              },
              "examples": {
                "createAndCapture": {
                  "summary": "Create and capture 1 500.00 KZT",
                  "value": {
                    "amount": 150000,
                    "currency": "KZT",
                    "capture": true,
                    "description": "Order #1001",
                    "payment_method": {
                      "type": "token",
                      "token": "tok_test_success"
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "201": {
            "$ref": "#/components/responses/Payment"
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "422": {
            "$ref": "#/components/responses/IdempotencyKeyReused"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      },
      "get": {
        "operationId": "listPayments",
        "summary": "List payments",
        "description": "Lists the calling key's payments, newest first, with cursor pagination: pass the last payment's `id` as `starting_after` to get the next page while `has_more` is `true`.",
        "tags": [
          "Payments"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names listing as existing but not shown; modelled as the common cursor-paginated list.",
        "parameters": [
          {
            "$ref": "#/components/parameters/Limit"
          },
          {
            "$ref": "#/components/parameters/StartingAfter"
          }
        ],
        "responses": {
          "200": {
            "description": "A page of payments.",
            "x-provenance": "inferred",
            "x-provenance-note": "The document does not show listing; the mock answers 200.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PaymentList"
                },
                "examples": {
                  "page": {
                    "summary": "A page of payments",
                    "value": {
                      "object": "list",
                      "data": [
                        {
                          "id": "pay_gQrfrN80p5CU6D3Va6ZzNWe6",
                          "object": "payment",
                          "status": "PENDING",
                          "amount": 150000,
                          "currency": "KZT",
                          "created_at": "2026-11-22T15:19:42Z",
                          "capture": true,
                          "description": "Order #1003",
                          "amount_captured": 0,
                          "amount_refunded": 0,
                          "failure_code": null,
                          "failure_message": null
                        },
                        {
                          "id": "pay_vRkIIpQWiAcnqJxtxdL5oCcp",
                          "object": "payment",
                          "status": "AUTHORIZED",
                          "amount": 150000,
                          "currency": "KZT",
                          "created_at": "2026-11-22T15:19:42Z",
                          "capture": false,
                          "description": "Order #1002",
                          "amount_captured": 0,
                          "amount_refunded": 0,
                          "failure_code": null,
                          "failure_message": null
                        }
                      ],
                      "has_more": true
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      }
    },
    "/v1/payments/{id}": {
      "parameters": [
        {
          "$ref": "#/components/parameters/PaymentId"
        }
      ],
      "get": {
        "operationId": "retrievePayment",
        "summary": "Retrieve a payment",
        "description": "Returns the payment with this `id` as it is now. Each key sees only its own payments: an id of another key's payment answers `404 not_found`, like an id that does not exist.",
        "tags": [
          "Payments"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names retrieval as existing but not shown; modelled as GET on the payment's path.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/InferredPayment"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      }
    },
    "/v1/payments/{id}/capture": {
      "parameters": [
        {
          "$ref": "#/components/parameters/PaymentId"
        }
      ],
      "post": {
        "operationId": "capturePayment",
        "summary": "Capture an authorized payment",
        "description": "Captures an `AUTHORIZED` payment, fully or (with `amount`) partially; the payment becomes `SUCCEEDED` and `amount_captured` records what was captured. Any other status is a 409 `invalid_state`.",
        "tags": [
          "Payments"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names capture as existing but not shown; modelled as a POST action with an optional partial amount.",
        "parameters": [
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": false,
          "x-provenance": "inferred",
          "x-provenance-note": "An empty body captures the whole authorized amount.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CapturePaymentRequest"
              },
              "examples": {
                "full": {
                  "summary": "Capture the whole authorized amount",
                  "value": {
                    "amount": 150000
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/CapturedPayment"
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "422": {
            "$ref": "#/components/responses/IdempotencyKeyReused"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      }
    },
    "/v1/payments/{id}/cancel": {
      "parameters": [
        {
          "$ref": "#/components/parameters/PaymentId"
        }
      ],
      "post": {
        "operationId": "cancelPayment",
        "summary": "Cancel an authorized payment",
        "description": "Releases an `AUTHORIZED` payment; it becomes `CANCELED`. Any other status is a 409 `invalid_state`. The body, when sent, must be an empty JSON object.",
        "tags": [
          "Payments"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names cancellation as existing but not shown; modelled as a POST action with no options.",
        "parameters": [
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": false,
          "x-provenance": "inferred",
          "x-provenance-note": "Cancellation takes no options; a body, when sent, is validated like any other.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CancelPaymentRequest"
              },
              "examples": {
                "empty": {
                  "summary": "No fields: the body may be empty or omitted",
                  "value": {}
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/CanceledPayment"
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "422": {
            "$ref": "#/components/responses/IdempotencyKeyReused"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      }
    },
    "/v1/payments/{id}/refunds": {
      "parameters": [
        {
          "$ref": "#/components/parameters/PaymentId"
        }
      ],
      "post": {
        "operationId": "createRefund",
        "summary": "Refund a payment",
        "description": "Refunds a `SUCCEEDED` payment, fully or (with `amount`) partially. `amount_refunded` on the payment adds up the refunds; when it reaches `amount_captured` the payment becomes `REFUNDED`. Refunding more than remains is a 400; any other status is a 409 `invalid_state`.",
        "tags": [
          "Payments"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names refunds as existing but not shown; modelled as a sub-collection of the payment returning a refund object.",
        "parameters": [
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": false,
          "x-provenance": "inferred",
          "x-provenance-note": "An empty body refunds everything that remains.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreateRefundRequest"
              },
              "examples": {
                "partial": {
                  "summary": "Refund 500.00 KZT",
                  "value": {
                    "amount": 50000
                  }
                }
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The refund.",
            "x-provenance": "inferred",
            "x-provenance-note": "The document does not show refunds; the mock answers 201.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              },
              "Idempotent-Replayed": {
                "$ref": "#/components/headers/Idempotent-Replayed"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Refund"
                },
                "examples": {
                  "refund": {
                    "summary": "A partial refund",
                    "value": {
                      "id": "ref_gS4osaedh8sCfKj9spE9ygxh",
                      "object": "refund",
                      "payment_id": "pay_EcIYSMJXsvfGZQ17MEqPSX4d",
                      "amount": 50000,
                      "currency": "KZT",
                      "status": "SUCCEEDED",
                      "created_at": "2026-11-22T15:19:42Z"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "422": {
            "$ref": "#/components/responses/IdempotencyKeyReused"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      }
    },
    "/v1/webhook_endpoints": {
      "post": {
        "operationId": "createWebhookEndpoint",
        "summary": "Register a webhook endpoint",
        "description": "Registers a URL that receives the key's events (all of them, or only those listed in `events`). The answer holds the endpoint's signing `secret` (`whsec_…`): it is shown only here, so store it at once; listing never shows it again. A key holds at most 16 endpoints: registering a 17th answers `409 webhook_endpoint_limit_reached` (delete one first).",
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names webhook management as existing but not shown; modelled as a POST that returns the endpoint with its signing secret once.",
        "parameters": [
          {
            "$ref": "#/components/parameters/IdempotencyKey"
          }
        ],
        "requestBody": {
          "required": true,
          "x-provenance": "inferred",
          "x-provenance-note": "Registration is not shown; a URL and an optional event filter.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/CreateWebhookEndpointRequest"
              },
              "examples": {
                "filtered": {
                  "summary": "Receive succeeded and failed payments",
                  "value": {
                    "url": "https://example.com/webhooks/payments",
                    "events": [
                      "payment.succeeded",
                      "payment.failed"
                    ]
                  }
                }
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "The endpoint, with its signing secret (shown only in this answer).",
            "x-provenance": "inferred",
            "x-provenance-note": "Registration is not shown; the mock answers 201.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              },
              "Idempotent-Replayed": {
                "$ref": "#/components/headers/Idempotent-Replayed"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WebhookEndpointWithSecret"
                },
                "examples": {
                  "endpoint": {
                    "summary": "The endpoint, with its signing secret",
                    "value": {
                      "id": "we_LiHNAzgkIyTc7V8T2B7FspR9",
                      "object": "webhook_endpoint",
                      "url": "https://example.com/webhooks/payments",
                      "events": [
                        "payment.succeeded",
                        "payment.failed"
                      ],
                      "status": "enabled",
                      "created_at": "2026-11-22T15:19:42Z",
                      "secret": "whsec_gedCkgUXfAOXjVDCOJJP5vq+/eZJC3BnsQj8iUAL4c0="
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/BadRequest"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "415": {
            "$ref": "#/components/responses/UnsupportedMediaType"
          },
          "422": {
            "$ref": "#/components/responses/IdempotencyKeyReused"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      },
      "get": {
        "operationId": "listWebhookEndpoints",
        "summary": "List webhook endpoints",
        "description": "Lists the key's webhook endpoints, oldest first. Secrets are never shown here. A key holds at most 16 endpoints, so one page holds them all.",
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names webhook management as existing but not shown; modelled as a list without secrets.",
        "responses": {
          "200": {
            "description": "Every webhook endpoint of the key.",
            "x-provenance": "inferred",
            "x-provenance-note": "Listing is not shown; the mock answers 200.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WebhookEndpointList"
                },
                "examples": {
                  "endpoints": {
                    "summary": "The key's endpoints",
                    "value": {
                      "object": "list",
                      "data": [
                        {
                          "id": "we_LiHNAzgkIyTc7V8T2B7FspR9",
                          "object": "webhook_endpoint",
                          "url": "https://example.com/webhooks/payments",
                          "events": [
                            "payment.succeeded",
                            "payment.failed"
                          ],
                          "status": "enabled",
                          "created_at": "2026-11-22T15:19:42Z"
                        }
                      ],
                      "has_more": false
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      }
    },
    "/v1/webhook_endpoints/{id}": {
      "parameters": [
        {
          "$ref": "#/components/parameters/WebhookEndpointId"
        }
      ],
      "delete": {
        "operationId": "deleteWebhookEndpoint",
        "summary": "Delete a webhook endpoint",
        "description": "Deletes the endpoint; it receives no further events, and its pending retries are dropped.",
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The document names webhook management as existing but not shown; modelled as DELETE on the endpoint's path.",
        "responses": {
          "200": {
            "description": "The endpoint was deleted.",
            "x-provenance": "inferred",
            "x-provenance-note": "Deletion is not shown; the mock answers 200 with a deletion marker.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeletedWebhookEndpoint"
                },
                "examples": {
                  "deleted": {
                    "summary": "The endpoint is deleted",
                    "value": {
                      "id": "we_LiHNAzgkIyTc7V8T2B7FspR9",
                      "object": "webhook_endpoint",
                      "deleted": true
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "$ref": "#/components/responses/NotFound"
          },
          "429": {
            "$ref": "#/components/responses/RateLimited"
          },
          "500": {
            "$ref": "#/components/responses/ServerError"
          },
          "502": {
            "$ref": "#/components/responses/ServerError"
          },
          "503": {
            "$ref": "#/components/responses/ServerError"
          },
          "504": {
            "$ref": "#/components/responses/ServerError"
          }
        }
      }
    }
  },
  "webhooks": {
    "payment.pending": {
      "post": {
        "operationId": "paymentPending",
        "summary": "payment.pending",
        "description": "The payment became `PENDING`: it is being processed asynchronously. Sent to every enabled endpoint whose `events` filter includes `payment.pending`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.",
        "security": [],
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "6",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event, as raw JSON; verify the signature over these exact bytes before parsing.",
          "x-provenance": "inferred",
          "x-provenance-note": "The payload shape is not shown; modelled as an event envelope carrying the payment.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PaymentPendingEvent"
              },
              "examples": {
                "pending": {
                  "summary": "A payment is pending",
                  "value": {
                    "id": "evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a",
                    "object": "event",
                    "type": "payment.pending",
                    "created_at": "2026-11-22T15:19:42Z",
                    "data": {
                      "object": {
                        "id": "pay_gQrfrN80p5CU6D3Va6ZzNWe6",
                        "object": "payment",
                        "status": "PENDING",
                        "amount": 150000,
                        "currency": "KZT",
                        "created_at": "2026-11-22T15:19:42Z",
                        "capture": true,
                        "description": "Order #1003",
                        "amount_captured": 0,
                        "amount_refunded": 0,
                        "failure_code": null,
                        "failure_message": null
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "$ref": "#/components/responses/WebhookAcknowledged"
          }
        }
      }
    },
    "payment.authorized": {
      "post": {
        "operationId": "paymentAuthorized",
        "summary": "payment.authorized",
        "description": "The payment became `AUTHORIZED`: held, awaiting capture or cancel. Sent to every enabled endpoint whose `events` filter includes `payment.authorized`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.",
        "security": [],
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "6",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event, as raw JSON; verify the signature over these exact bytes before parsing.",
          "x-provenance": "inferred",
          "x-provenance-note": "The payload shape is not shown; modelled as an event envelope carrying the payment.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PaymentAuthorizedEvent"
              },
              "examples": {
                "authorized": {
                  "summary": "A payment is authorized",
                  "value": {
                    "id": "evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a",
                    "object": "event",
                    "type": "payment.authorized",
                    "created_at": "2026-11-22T15:19:42Z",
                    "data": {
                      "object": {
                        "id": "pay_vRkIIpQWiAcnqJxtxdL5oCcp",
                        "object": "payment",
                        "status": "AUTHORIZED",
                        "amount": 150000,
                        "currency": "KZT",
                        "created_at": "2026-11-22T15:19:42Z",
                        "capture": false,
                        "description": "Order #1002",
                        "amount_captured": 0,
                        "amount_refunded": 0,
                        "failure_code": null,
                        "failure_message": null
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "$ref": "#/components/responses/WebhookAcknowledged"
          }
        }
      }
    },
    "payment.succeeded": {
      "post": {
        "operationId": "paymentSucceeded",
        "summary": "payment.succeeded",
        "description": "The payment became `SUCCEEDED`: processed successfully (created with capture, captured, or settled). Sent to every enabled endpoint whose `events` filter includes `payment.succeeded`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.",
        "security": [],
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "6",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event, as raw JSON; verify the signature over these exact bytes before parsing.",
          "x-provenance": "inferred",
          "x-provenance-note": "The payload shape is not shown; modelled as an event envelope carrying the payment.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PaymentSucceededEvent"
              },
              "examples": {
                "succeeded": {
                  "summary": "A payment succeeded",
                  "value": {
                    "id": "evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a",
                    "object": "event",
                    "type": "payment.succeeded",
                    "created_at": "2026-11-22T15:19:42Z",
                    "data": {
                      "object": {
                        "id": "pay_gQrfrN80p5CU6D3Va6ZzNWe6",
                        "object": "payment",
                        "status": "SUCCEEDED",
                        "amount": 150000,
                        "currency": "KZT",
                        "created_at": "2026-11-22T15:19:42Z",
                        "capture": true,
                        "description": "Order #1003",
                        "amount_captured": 150000,
                        "amount_refunded": 0,
                        "failure_code": null,
                        "failure_message": null
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "$ref": "#/components/responses/WebhookAcknowledged"
          }
        }
      }
    },
    "payment.failed": {
      "post": {
        "operationId": "paymentFailed",
        "summary": "payment.failed",
        "description": "The payment became `FAILED`: declined; see `failure_code`. Sent to every enabled endpoint whose `events` filter includes `payment.failed`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.",
        "security": [],
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "6",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event, as raw JSON; verify the signature over these exact bytes before parsing.",
          "x-provenance": "inferred",
          "x-provenance-note": "The payload shape is not shown; modelled as an event envelope carrying the payment.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PaymentFailedEvent"
              },
              "examples": {
                "failed": {
                  "summary": "A payment was declined",
                  "value": {
                    "id": "evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a",
                    "object": "event",
                    "type": "payment.failed",
                    "created_at": "2026-11-22T15:19:42Z",
                    "data": {
                      "object": {
                        "id": "pay_EcIYSMJXsvfGZQ17MEqPSX4d",
                        "object": "payment",
                        "status": "FAILED",
                        "amount": 150000,
                        "currency": "KZT",
                        "created_at": "2026-11-22T15:19:42Z",
                        "capture": true,
                        "description": "Order #1004",
                        "amount_captured": 0,
                        "amount_refunded": 0,
                        "failure_code": "card_declined",
                        "failure_message": "The card was declined by the issuer."
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "$ref": "#/components/responses/WebhookAcknowledged"
          }
        }
      }
    },
    "payment.canceled": {
      "post": {
        "operationId": "paymentCanceled",
        "summary": "payment.canceled",
        "description": "The payment became `CANCELED`: its authorization was released. Sent to every enabled endpoint whose `events` filter includes `payment.canceled`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.",
        "security": [],
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "6",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event, as raw JSON; verify the signature over these exact bytes before parsing.",
          "x-provenance": "inferred",
          "x-provenance-note": "The payload shape is not shown; modelled as an event envelope carrying the payment.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PaymentCanceledEvent"
              },
              "examples": {
                "canceled": {
                  "summary": "An authorization was released",
                  "value": {
                    "id": "evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a",
                    "object": "event",
                    "type": "payment.canceled",
                    "created_at": "2026-11-22T15:19:42Z",
                    "data": {
                      "object": {
                        "id": "pay_vRkIIpQWiAcnqJxtxdL5oCcp",
                        "object": "payment",
                        "status": "CANCELED",
                        "amount": 150000,
                        "currency": "KZT",
                        "created_at": "2026-11-22T15:19:42Z",
                        "capture": false,
                        "description": "Order #1002",
                        "amount_captured": 0,
                        "amount_refunded": 0,
                        "failure_code": null,
                        "failure_message": null
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "$ref": "#/components/responses/WebhookAcknowledged"
          }
        }
      }
    },
    "payment.refunded": {
      "post": {
        "operationId": "paymentRefunded",
        "summary": "payment.refunded",
        "description": "The payment became `REFUNDED`: its refunds reached the captured amount. Sent to every enabled endpoint whose `events` filter includes `payment.refunded`, signed per the Standard Webhooks specification. Delivery is at least once and in no guaranteed order: deduplicate on `webhook-id`.",
        "security": [],
        "tags": [
          "Webhooks"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "6",
        "parameters": [
          {
            "$ref": "#/components/parameters/WebhookId"
          },
          {
            "$ref": "#/components/parameters/WebhookTimestamp"
          },
          {
            "$ref": "#/components/parameters/WebhookSignature"
          }
        ],
        "requestBody": {
          "required": true,
          "description": "The event, as raw JSON; verify the signature over these exact bytes before parsing.",
          "x-provenance": "inferred",
          "x-provenance-note": "The payload shape is not shown; modelled as an event envelope carrying the payment.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PaymentRefundedEvent"
              },
              "examples": {
                "refunded": {
                  "summary": "A payment was fully refunded",
                  "value": {
                    "id": "evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a",
                    "object": "event",
                    "type": "payment.refunded",
                    "created_at": "2026-11-22T15:19:42Z",
                    "data": {
                      "object": {
                        "id": "pay_EcIYSMJXsvfGZQ17MEqPSX4d",
                        "object": "payment",
                        "status": "REFUNDED",
                        "amount": 150000,
                        "currency": "KZT",
                        "created_at": "2026-11-22T15:19:42Z",
                        "capture": true,
                        "description": "Order #1001",
                        "amount_captured": 150000,
                        "amount_refunded": 150000,
                        "failure_code": null,
                        "failure_message": null
                      }
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "2XX": {
            "$ref": "#/components/responses/WebhookAcknowledged"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "sk_test_ followed by 8 to 128 of [A-Za-z0-9_-] in the sandbox",
        "description": "`Authorization: Bearer <API_KEY>` with a secret key. The sandbox accepts any key of the form `sk_test_` followed by 8 to 128 characters of `[A-Za-z0-9_-]` (anything else is `401 invalid_api_key`; an `sk_live_` key is `401 live_key_in_sandbox`). Secret keys begin with `sk_`; sandbox keys begin with `sk_test_`. A secret key is for server-side code only, never frontend code.",
        "x-provenance": "documented",
        "x-provenance-ref": "5"
      }
    },
    "parameters": {
      "WebhookEndpointId": {
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The webhook endpoint's identifier (`we_…`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Webhook management is not shown; the endpoint's id addresses it.",
        "example": "we_4fQp8LmN2xR7sT9vW1yZ3aBc",
        "schema": {
          "type": "string",
          "minLength": 1,
          "x-provenance": "inferred",
          "x-provenance-note": "An unknown or malformed id is a 404, not a 400."
        }
      },
      "WebhookId": {
        "name": "webhook-id",
        "in": "header",
        "required": true,
        "description": "The event's id (`evt_…`), the same on every retry and redelivery: deduplicate on it.",
        "x-provenance": "inferred",
        "x-provenance-note": "Signing is not shown; the Standard Webhooks specification's message-id header.",
        "example": "evt_7Hc2Kq9LmN4pR8sT1vW3yZ5a",
        "schema": {
          "type": "string",
          "pattern": "^evt_.+$",
          "x-provenance": "inferred",
          "x-provenance-note": "The event's id."
        }
      },
      "WebhookTimestamp": {
        "name": "webhook-timestamp",
        "in": "header",
        "required": true,
        "description": "When this attempt was signed, in whole seconds since the epoch (real time, not the sandbox clock). Reject it when it is too far from your clock (5 minutes is the default tolerance of the SDK's `webhooks.verify`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Signing is not shown; the Standard Webhooks specification's timestamp header, against replays.",
        "example": "1795320000",
        "schema": {
          "type": "string",
          "pattern": "^[0-9]+$",
          "x-provenance": "inferred",
          "x-provenance-note": "Integer Unix seconds."
        }
      },
      "WebhookSignature": {
        "name": "webhook-signature",
        "in": "header",
        "required": true,
        "description": "Space-separated signatures, each `v1,<base64>`: the base64 of the HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of the endpoint's `whsec_<base64>` secret. Ignore versions you do not know.",
        "x-provenance": "inferred",
        "x-provenance-note": "Signing is not shown; the Standard Webhooks specification's symmetric signature.",
        "example": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
        "schema": {
          "type": "string",
          "pattern": "^v[0-9]+,[A-Za-z0-9+/=]+( v[0-9]+,[A-Za-z0-9+/=]+)*$",
          "x-provenance": "inferred",
          "x-provenance-note": "One or more version,signature pairs."
        }
      },
      "IdempotencyKey": {
        "name": "Idempotency-Key",
        "in": "header",
        "required": false,
        "description": "Makes a POST safe to retry. The first response for a key (per API key) is stored for 24 hours and replayed with `Idempotent-Replayed: true`; the same key with another method, path or body is a 422; the same key while the first request is in flight is a 409. Requests refused before processing (400, 401, 413, 415), rate-limited (429) or failed by the server (5xx) are not stored, so a retry with the same key runs the request again.",
        "x-provenance": "inferred",
        "x-provenance-note": "Idempotency rules are not shown; modelled on the IETF httpapi Idempotency-Key draft.",
        "example": "5f0c6a3e-8d1b-4c2e-9a7f-2b3c4d5e6f70",
        "schema": {
          "type": "string",
          "minLength": 1,
          "maxLength": 255,
          "x-provenance": "inferred",
          "x-provenance-note": "Any opaque string up to 255 characters; a UUID is recommended."
        }
      },
      "PaymentId": {
        "name": "id",
        "in": "path",
        "required": true,
        "description": "The payment's identifier.",
        "x-provenance": "inferred",
        "x-provenance-note": "Retrieval is not shown; the payment's id addresses it.",
        "example": "pay_2x7Qk9LmN4pR8sT1vW3yZ5aB",
        "schema": {
          "type": "string",
          "minLength": 1,
          "x-provenance": "inferred",
          "x-provenance-note": "An unknown or malformed id is a 404, not a 400."
        }
      },
      "Limit": {
        "name": "limit",
        "in": "query",
        "required": false,
        "description": "How many payments a page holds, 1 to 100 (default 10).",
        "x-provenance": "inferred",
        "x-provenance-note": "Listing is not shown; the common page-size parameter.",
        "example": 10,
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 10,
          "x-provenance": "inferred",
          "x-provenance-note": "Bounds chosen so a page stays small."
        }
      },
      "StartingAfter": {
        "name": "starting_after",
        "in": "query",
        "required": false,
        "description": "The id of one of the calling key's payments; the page starts with the payment listed after it. Any other id (unknown, or another key's) answers `400 invalid_request` on `starting_after`.",
        "x-provenance": "inferred",
        "x-provenance-note": "Listing is not shown; the common cursor parameter.",
        "example": "pay_2x7Qk9LmN4pR8sT1vW3yZ5aB",
        "schema": {
          "type": "string",
          "minLength": 1,
          "x-provenance": "inferred",
          "x-provenance-note": "An id that is not one of the key's payments is a 400."
        }
      }
    },
    "headers": {
      "Request-Id": {
        "description": "Identifies the request in logs and support requests; present on every response.",
        "required": true,
        "x-provenance": "inferred",
        "x-provenance-note": "Not shown in the document; every response carries one so an error can be traced.",
        "example": "req_8kTq2LmN4pR7sV1x",
        "schema": {
          "type": "string",
          "pattern": "^req_[A-Za-z0-9]+$",
          "x-provenance": "inferred",
          "x-provenance-note": "Our format: req_ followed by random characters."
        }
      },
      "Idempotent-Replayed": {
        "description": "`true` when the response is a stored response replayed for a repeated Idempotency-Key.",
        "required": false,
        "x-provenance": "inferred",
        "x-provenance-note": "Idempotency is not shown; modelled on the IETF httpapi Idempotency-Key draft.",
        "example": "true",
        "schema": {
          "type": "string",
          "enum": [
            "true"
          ],
          "x-provenance": "inferred",
          "x-provenance-note": "Present only on replays."
        }
      },
      "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "required": false,
        "x-provenance": "inferred",
        "x-provenance-note": "Rate limits are not shown; the standard HTTP header tells when to retry.",
        "example": "2",
        "schema": {
          "type": "string",
          "pattern": "^[0-9]+$",
          "x-provenance": "inferred",
          "x-provenance-note": "The mock sends delay-seconds; HTTP-dates are also valid HTTP."
        }
      }
    },
    "responses": {
      "WebhookAcknowledged": {
        "description": "Any 2xx acknowledges the event. `410 Gone` disables the endpoint; any other status, a timeout (10 s) or a connection error is retried with exponential backoff and jitter.",
        "x-provenance": "inferred",
        "x-provenance-note": "Retries are not shown; the Standard Webhooks convention of acknowledging with a 2xx."
      },
      "Payment": {
        "description": "The payment. Its body is documented; the status code is not: the spec declares `201 Created` (our inference, the HTTP convention for a creation), and clients accept any 2xx.",
        "x-provenance": "documented",
        "x-provenance-ref": "4.1",
        "x-status-provenance": "inferred",
        "x-status-provenance-note": "The document shows the created payment but not the HTTP status code.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          },
          "Idempotent-Replayed": {
            "$ref": "#/components/headers/Idempotent-Replayed"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Payment"
            },
            "examples": {
              "succeeded": {
                "summary": "A payment created and captured with tok_test_success",
                "value": {
                  "id": "pay_EcIYSMJXsvfGZQ17MEqPSX4d",
                  "object": "payment",
                  "status": "SUCCEEDED",
                  "amount": 150000,
                  "currency": "KZT",
                  "created_at": "2026-11-22T15:19:42Z",
                  "capture": true,
                  "description": "Order #1001",
                  "amount_captured": 150000,
                  "amount_refunded": 0,
                  "failure_code": null,
                  "failure_message": null
                }
              }
            }
          }
        }
      },
      "InferredPayment": {
        "description": "The payment as it is now.",
        "x-provenance": "inferred",
        "x-provenance-note": "The operation is not shown in the document; it answers with the payment record (200 from the mock).",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          },
          "Idempotent-Replayed": {
            "$ref": "#/components/headers/Idempotent-Replayed"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Payment"
            },
            "examples": {
              "authorized": {
                "summary": "An authorized payment (capture: false)",
                "value": {
                  "id": "pay_vRkIIpQWiAcnqJxtxdL5oCcp",
                  "object": "payment",
                  "status": "AUTHORIZED",
                  "amount": 150000,
                  "currency": "KZT",
                  "created_at": "2026-11-22T15:19:42Z",
                  "capture": false,
                  "description": "Order #1002",
                  "amount_captured": 0,
                  "amount_refunded": 0,
                  "failure_code": null,
                  "failure_message": null
                }
              }
            }
          }
        }
      },
      "CapturedPayment": {
        "description": "The payment, captured (`SUCCEEDED`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Capture is not shown in the document; it answers with the captured payment (200 from the mock).",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          },
          "Idempotent-Replayed": {
            "$ref": "#/components/headers/Idempotent-Replayed"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Payment"
            },
            "examples": {
              "captured": {
                "summary": "The authorized payment, captured in full",
                "value": {
                  "id": "pay_vRkIIpQWiAcnqJxtxdL5oCcp",
                  "object": "payment",
                  "status": "SUCCEEDED",
                  "amount": 150000,
                  "currency": "KZT",
                  "created_at": "2026-11-22T15:19:42Z",
                  "capture": false,
                  "description": "Order #1002",
                  "amount_captured": 150000,
                  "amount_refunded": 0,
                  "failure_code": null,
                  "failure_message": null
                }
              }
            }
          }
        }
      },
      "CanceledPayment": {
        "description": "The payment, canceled (`CANCELED`): the authorization is released.",
        "x-provenance": "inferred",
        "x-provenance-note": "Cancellation is not shown in the document; it answers with the canceled payment (200 from the mock).",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          },
          "Idempotent-Replayed": {
            "$ref": "#/components/headers/Idempotent-Replayed"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Payment"
            },
            "examples": {
              "canceled": {
                "summary": "The authorization, released",
                "value": {
                  "id": "pay_vRkIIpQWiAcnqJxtxdL5oCcp",
                  "object": "payment",
                  "status": "CANCELED",
                  "amount": 150000,
                  "currency": "KZT",
                  "created_at": "2026-11-22T15:19:42Z",
                  "capture": false,
                  "description": "Order #1002",
                  "amount_captured": 0,
                  "amount_refunded": 0,
                  "failure_code": null,
                  "failure_message": null
                }
              }
            }
          }
        }
      },
      "BadRequest": {
        "description": "The request is malformed: `invalid_json` or `invalid_request` (every field problem is listed in `errors`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Error statuses are not shown; 400 is the HTTP status for a malformed request.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "invalidRequest": {
                "summary": "Two invalid fields",
                "value": {
                  "type": "urn:payment-service:problem:invalid_request",
                  "title": "Invalid request",
                  "status": 400,
                  "detail": "The request has 2 problems: amount must be an integer ≥ 1 and ≤ 999999999999; currency must be a string matching ^[A-Z]{3}$ (for example KZT or RUB).",
                  "code": "invalid_request",
                  "param": "amount",
                  "errors": [
                    {
                      "param": "amount",
                      "code": "minimum",
                      "message": "amount must be an integer ≥ 1 and ≤ 999999999999"
                    },
                    {
                      "param": "currency",
                      "code": "invalid_value",
                      "message": "currency must be a string matching ^[A-Z]{3}$ (for example KZT or RUB)"
                    }
                  ],
                  "request_id": "req_Vo0QBDqKVDbLco7NqSE0"
                }
              }
            }
          }
        }
      },
      "Unauthorized": {
        "description": "The key is missing (`missing_api_key`), malformed or unknown (`invalid_api_key`), or a live key used in the sandbox (`live_key_in_sandbox`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Error statuses are not shown; 401 is the HTTP status for failed authentication.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "missingApiKey": {
                "summary": "No key was sent",
                "value": {
                  "type": "urn:payment-service:problem:missing_api_key",
                  "title": "Missing API key",
                  "status": 401,
                  "detail": "No API key was sent. Send your sandbox secret key as `Authorization: Bearer sk_test_…`.",
                  "code": "missing_api_key",
                  "request_id": "req_XxkqYq9r6lNg8CgDIplY"
                }
              }
            }
          }
        }
      },
      "NotFound": {
        "description": "No resource with this id (a payment, a webhook endpoint) belongs to the calling key (`not_found`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Error statuses are not shown; 404 is the HTTP status for an unknown resource.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "notFound": {
                "summary": "No such payment for this key",
                "value": {
                  "type": "urn:payment-service:problem:not_found",
                  "title": "Not found",
                  "status": 404,
                  "detail": "No payment with id pay_000000000000000000000000 exists for this API key.",
                  "code": "not_found",
                  "request_id": "req_1mtgG54grChyNtE2U4g4"
                }
              }
            }
          }
        }
      },
      "Conflict": {
        "description": "The payment's status does not allow the action (`invalid_state`), a request with the same Idempotency-Key is still in flight (`idempotency_key_in_use`), or the key already has 16 webhook endpoints (`webhook_endpoint_limit_reached`, on creating an endpoint).",
        "x-provenance": "inferred",
        "x-provenance-note": "Transitions and idempotency are not shown; 409 is the HTTP status for a conflict with the resource's state.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "invalidState": {
                "summary": "Canceling a payment that already succeeded",
                "value": {
                  "type": "urn:payment-service:problem:invalid_state",
                  "title": "Invalid state",
                  "status": 409,
                  "detail": "Payment pay_EcIYSMJXsvfGZQ17MEqPSX4d is SUCCEEDED; cancel needs an AUTHORIZED payment. From SUCCEEDED the allowed actions are: refund.",
                  "code": "invalid_state",
                  "request_id": "req_hVYFaE4edHNn2KAWqZKz"
                }
              }
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "The request body is larger than the limit (`body_too_large`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Size limits are not shown; the mock accepts bodies up to 64 KiB.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "bodyTooLarge": {
                "summary": "A body over 64 KiB",
                "value": {
                  "type": "urn:payment-service:problem:body_too_large",
                  "title": "Body too large",
                  "status": 413,
                  "detail": "The request body is larger than the limit of 65536 bytes.",
                  "code": "body_too_large",
                  "request_id": "req_NoRQZmR2gg5XqjHlj6yU"
                }
              }
            }
          }
        }
      },
      "UnsupportedMediaType": {
        "description": "The request body is not sent as `application/json` (`unsupported_media_type`).",
        "x-provenance": "inferred",
        "x-provenance-note": "The document requires Content-Type application/json but does not show the error; 415 is the HTTP status for it.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "unsupportedMediaType": {
                "summary": "A form-encoded body",
                "value": {
                  "type": "urn:payment-service:problem:unsupported_media_type",
                  "title": "Unsupported media type",
                  "status": 415,
                  "detail": "Send the request body as JSON with the header `Content-Type: application/json`.",
                  "code": "unsupported_media_type",
                  "request_id": "req_OuEEbjzPIzVeDqzXAYS8"
                }
              }
            }
          }
        }
      },
      "IdempotencyKeyReused": {
        "description": "The Idempotency-Key was used before with another method, path or body (`idempotency_key_reused`).",
        "x-provenance": "inferred",
        "x-provenance-note": "Idempotency is not shown; the IETF httpapi draft answers 422 to a reused key.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "idempotencyKeyReused": {
                "summary": "The same key with another body",
                "value": {
                  "type": "urn:payment-service:problem:idempotency_key_reused",
                  "title": "Idempotency key reused",
                  "status": 422,
                  "detail": "This Idempotency-Key was first used with POST /v1/payments; this request differs in its body. Use a new key for a different request.",
                  "code": "idempotency_key_reused",
                  "request_id": "req_lND430uplvIZKolZ2xKX"
                }
              }
            }
          }
        }
      },
      "RateLimited": {
        "description": "Too many requests (`rate_limited`); retry after `Retry-After` seconds.",
        "x-provenance": "inferred",
        "x-provenance-note": "Rate limits are not shown; 429 with Retry-After is the HTTP convention.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          },
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "rateLimited": {
                "summary": "Too many requests",
                "value": {
                  "type": "urn:payment-service:problem:rate_limited",
                  "title": "Too many requests",
                  "status": 429,
                  "detail": "Too many requests (sandbox fault injection). Nothing was changed; retry after the Retry-After delay.",
                  "code": "rate_limited",
                  "request_id": "req_S1Qgrk2AskwNiTlOYYoC"
                }
              }
            }
          }
        }
      },
      "ServerError": {
        "description": "The service failed (`internal_error`), a gateway failed or timed out (`bad_gateway`, `gateway_timeout`), or the service is unavailable (`service_unavailable`); never caused by client input. Safe to retry with the same Idempotency-Key.",
        "x-provenance": "inferred",
        "x-provenance-note": "Server errors are not shown; any 5xx is possible, and retrying is safe with an Idempotency-Key.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          },
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        },
        "content": {
          "application/problem+json": {
            "schema": {
              "$ref": "#/components/schemas/Problem"
            },
            "examples": {
              "serviceUnavailable": {
                "summary": "The service is unavailable",
                "value": {
                  "type": "urn:payment-service:problem:service_unavailable",
                  "title": "Service unavailable",
                  "status": 503,
                  "detail": "The service is unavailable (sandbox fault injection). Nothing was changed; retry with the same Idempotency-Key.",
                  "code": "service_unavailable",
                  "request_id": "req_b18dzFpJO9jU1VTkMosx"
                }
              }
            }
          }
        }
      }
    },
    "schemas": {
      "Amount": {
        "type": "integer",
        "minimum": 1,
        "maximum": 999999999999,
        "description": "A whole number of minor currency units (tiyn for KZT, kopecks for RUB), from 1 to 999 999 999 999.",
        "x-provenance": "inferred",
        "x-provenance-note": "The document states an integer whole number; the unit (minor units) and the bounds are ours: a positive amount that stays a safe JavaScript integer."
      },
      "Currency": {
        "type": "string",
        "pattern": "^[A-Z]{3}$",
        "description": "A three-letter uppercase currency code; `KZT` and `RUB` are the codes used with this interface.",
        "examples": [
          "KZT",
          "RUB"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "2.2"
      },
      "PaymentStatus": {
        "type": "string",
        "enum": [
          "PENDING",
          "AUTHORIZED",
          "SUCCEEDED",
          "FAILED",
          "CANCELED",
          "REFUNDED"
        ],
        "description": "`PENDING` (processing asynchronously), `AUTHORIZED` (held, awaiting capture or cancel), `SUCCEEDED` (processed successfully), `FAILED` (declined; see `failure_code`), `CANCELED` (authorization released), `REFUNDED` (fully refunded).",
        "x-provenance": "inferred",
        "x-provenance-note": "The document states only that statuses include SUCCEEDED; the other values are our model of the usual payment lifecycle.",
        "x-provenance-values": {
          "SUCCEEDED": {
            "x-provenance": "documented",
            "x-provenance-ref": "3"
          }
        }
      },
      "PaymentMethod": {
        "type": "object",
        "description": "The payment instrument.",
        "required": [
          "type",
          "token"
        ],
        "additionalProperties": false,
        "maxProperties": 32,
        "x-provenance": "documented",
        "x-provenance-ref": "2.2",
        "properties": {
          "type": {
            "type": "string",
            "enum": [
              "token"
            ],
            "description": "`token` selects payment by token."
          },
          "token": {
            "type": "string",
            "minLength": 1,
            "maxLength": 255,
            "description": "A payment token. Sandbox test tokens begin with `tok_test_`; the sandbox accepts the tokens listed in `x-test-tokens` (the one source of the test-token table: the mock's token behaviour, the CLI banner and every README table are generated from it or checked against it).",
            "x-test-tokens": [
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
            ]
          }
        }
      },
      "CreatePaymentRequest": {
        "type": "object",
        "description": "The fields of a payment-creation request.",
        "required": [
          "amount",
          "currency",
          "payment_method"
        ],
        "additionalProperties": false,
        "maxProperties": 32,
        "x-provenance": "documented",
        "x-provenance-ref": "2.2",
        "properties": {
          "amount": {
            "$ref": "#/components/schemas/Amount"
          },
          "currency": {
            "$ref": "#/components/schemas/Currency"
          },
          "capture": {
            "type": "boolean",
            "default": true,
            "description": "When `true` (the default), the payment is created and captured in one request; `false` only authorizes it."
          },
          "description": {
            "type": "string",
            "maxLength": 1000,
            "description": "Free text describing the payment."
          },
          "payment_method": {
            "$ref": "#/components/schemas/PaymentMethod"
          }
        }
      },
      "CapturePaymentRequest": {
        "type": "object",
        "description": "Capture options.",
        "additionalProperties": false,
        "maxProperties": 32,
        "x-provenance": "inferred",
        "x-provenance-note": "Capture is not shown; an optional amount allows a partial capture.",
        "properties": {
          "amount": {
            "$ref": "#/components/schemas/Amount"
          }
        }
      },
      "CancelPaymentRequest": {
        "type": "object",
        "description": "Cancellation takes no options; the body, when sent, is an empty object.",
        "additionalProperties": false,
        "maxProperties": 32,
        "x-provenance": "inferred",
        "x-provenance-note": "Cancellation is not shown; no options are modelled."
      },
      "CreateRefundRequest": {
        "type": "object",
        "description": "Refund options.",
        "additionalProperties": false,
        "maxProperties": 32,
        "x-provenance": "inferred",
        "x-provenance-note": "Refunds are not shown; an optional amount allows a partial refund.",
        "properties": {
          "amount": {
            "$ref": "#/components/schemas/Amount"
          }
        }
      },
      "Payment": {
        "type": "object",
        "description": "A payment record.",
        "required": [
          "id",
          "object",
          "status",
          "amount",
          "currency",
          "created_at",
          "capture",
          "description",
          "amount_captured",
          "amount_refunded",
          "failure_code",
          "failure_message"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "2.1",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^pay_.+$",
            "description": "Payment identifier; `pay_` followed by an opaque string."
          },
          "object": {
            "type": "string",
            "const": "payment",
            "description": "Always `payment`."
          },
          "status": {
            "$ref": "#/components/schemas/PaymentStatus"
          },
          "amount": {
            "$ref": "#/components/schemas/Amount",
            "description": "The amount as sent in the request."
          },
          "currency": {
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "The currency code as sent in the request."
          },
          "created_at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the payment was created, UTC, exactly `YYYY-MM-DDThh:mm:ssZ`."
          },
          "capture": {
            "type": "boolean",
            "description": "Whether the payment was created with capture in the same request.",
            "x-provenance": "inferred",
            "x-provenance-note": "The complete field list is not shown; the request's capture flag is echoed."
          },
          "description": {
            "type": [
              "string",
              "null"
            ],
            "description": "The description sent in the request, or `null`.",
            "x-provenance": "inferred",
            "x-provenance-note": "The complete field list is not shown; the request's description is echoed."
          },
          "amount_captured": {
            "type": "integer",
            "minimum": 0,
            "maximum": 999999999999,
            "description": "How much has been captured (0 until the payment is captured).",
            "x-provenance": "inferred",
            "x-provenance-note": "The complete field list is not shown; needed for partial captures."
          },
          "amount_refunded": {
            "type": "integer",
            "minimum": 0,
            "maximum": 999999999999,
            "description": "The sum of the payment's refunds; never more than `amount_captured`.",
            "x-provenance": "inferred",
            "x-provenance-note": "The complete field list is not shown; counts partial refunds."
          },
          "failure_code": {
            "type": [
              "string",
              "null"
            ],
            "description": "Why a `FAILED` payment was declined (`card_declined`, `insufficient_funds`, `expired_card`, `processing_error`); `null` otherwise.",
            "x-provenance": "inferred",
            "x-provenance-note": "Failure reporting is not shown; a machine-readable reason on the payment."
          },
          "failure_message": {
            "type": [
              "string",
              "null"
            ],
            "description": "A human-readable explanation of `failure_code`; `null` when the payment did not fail.",
            "x-provenance": "inferred",
            "x-provenance-note": "Failure reporting is not shown; a readable reason beside the code."
          }
        }
      },
      "PaymentList": {
        "type": "object",
        "description": "A page of payments, newest first.",
        "required": [
          "object",
          "data",
          "has_more"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Listing is not shown; the common list envelope with cursor pagination.",
        "properties": {
          "object": {
            "type": "string",
            "const": "list",
            "description": "Always `list`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Marks a list envelope."
          },
          "data": {
            "type": "array",
            "description": "The payments of this page.",
            "x-provenance": "inferred",
            "x-provenance-note": "The page's items.",
            "items": {
              "$ref": "#/components/schemas/Payment"
            }
          },
          "has_more": {
            "type": "boolean",
            "description": "Whether more payments follow the last one in `data`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Tells the client whether to fetch the next page."
          }
        }
      },
      "Refund": {
        "type": "object",
        "description": "A refund of all or part of a payment.",
        "required": [
          "id",
          "object",
          "payment_id",
          "amount",
          "currency",
          "status",
          "created_at"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Refunds are not shown; modelled as their own object.",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^ref_.+$",
            "description": "Refund identifier; `ref_` followed by an opaque string.",
            "x-provenance": "inferred",
            "x-provenance-note": "Prefix chosen like the documented pay_ prefix."
          },
          "object": {
            "type": "string",
            "const": "refund",
            "description": "Always `refund`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Like the payment's object field."
          },
          "payment_id": {
            "type": "string",
            "pattern": "^pay_.+$",
            "description": "The refunded payment.",
            "x-provenance": "inferred",
            "x-provenance-note": "Links the refund to its payment."
          },
          "amount": {
            "$ref": "#/components/schemas/Amount",
            "description": "The refunded amount, in the payment's minor units.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same unit as the payment's amount."
          },
          "currency": {
            "type": "string",
            "pattern": "^[A-Z]{3}$",
            "description": "The payment's currency.",
            "x-provenance": "inferred",
            "x-provenance-note": "Copied from the payment."
          },
          "status": {
            "type": "string",
            "enum": [
              "SUCCEEDED"
            ],
            "description": "The refund's status; sandbox refunds succeed at once.",
            "x-provenance": "inferred",
            "x-provenance-note": "Refund statuses are not shown; the sandbox refunds synchronously."
          },
          "created_at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the refund was created, UTC, `YYYY-MM-DDThh:mm:ssZ`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same timestamp form as the payment's documented created_at."
          }
        }
      },
      "Timestamp": {
        "type": "string",
        "format": "date-time",
        "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$",
        "description": "A UTC time, exactly `YYYY-MM-DDThh:mm:ssZ`: no fractional seconds, no offset. Every time the API and the sandbox write has this form.",
        "examples": [
          "2026-11-22T04:20:00Z"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "2.1"
      },
      "ErrorCode": {
        "type": "string",
        "description": "A stable, machine-readable snake_case error code. `x-error-codes` gives each code's HTTP status, title and meaning: the one source of the mock's code → status table, the SDK's code → error-class mapping (checked) and the README's error table (checked).",
        "enum": [
          "invalid_request",
          "invalid_json",
          "missing_api_key",
          "invalid_api_key",
          "live_key_in_sandbox",
          "not_found",
          "method_not_allowed",
          "invalid_state",
          "idempotency_key_in_use",
          "webhook_endpoint_limit_reached",
          "body_too_large",
          "unsupported_media_type",
          "idempotency_key_reused",
          "rate_limited",
          "internal_error",
          "bad_gateway",
          "service_unavailable",
          "sandbox_full",
          "store_unavailable",
          "gateway_timeout",
          "host_not_allowed"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Errors are not shown in the document; the codes are our vocabulary for programs that branch on the error.",
        "x-error-codes": {
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
        }
      },
      "Problem": {
        "type": "object",
        "description": "An RFC 9457 problem details document.",
        "required": [
          "type",
          "title",
          "status",
          "detail",
          "code",
          "request_id"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "The error body is not shown; modelled as RFC 9457 problem details with a stable code.",
        "properties": {
          "type": {
            "type": "string",
            "format": "uri-reference",
            "description": "A URI naming the problem type: `urn:payment-service:problem:<code>`.",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member; a URN because the provider publishes no problem pages."
          },
          "title": {
            "type": "string",
            "description": "A short summary of the problem type.",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member."
          },
          "status": {
            "type": "integer",
            "minimum": 400,
            "maximum": 599,
            "description": "The HTTP status code.",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member."
          },
          "detail": {
            "type": "string",
            "description": "What went wrong in this request, and how to fix it.",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member."
          },
          "code": {
            "$ref": "#/components/schemas/ErrorCode"
          },
          "param": {
            "type": "string",
            "description": "The request field at fault, as a dotted path, when there is one.",
            "x-provenance": "inferred",
            "x-provenance-note": "Extension member pointing at the first field at fault."
          },
          "errors": {
            "type": "array",
            "maxItems": 10,
            "description": "The field problems of the request, not only the first: at most 10, in the order they were found; `errors_omitted` counts the ones left out.",
            "x-provenance": "inferred",
            "x-provenance-note": "Extension member so a client can fix all problems at once; bounded so a hostile body cannot make a huge answer.",
            "items": {
              "$ref": "#/components/schemas/FieldError"
            }
          },
          "errors_omitted": {
            "type": "integer",
            "minimum": 1,
            "description": "How many field problems were found beyond the ones listed in `errors` (absent when none were left out).",
            "x-provenance": "inferred",
            "x-provenance-note": "Extension member; says the list in `errors` is not the whole story."
          },
          "request_id": {
            "type": "string",
            "pattern": "^req_[A-Za-z0-9]+$",
            "description": "The request's id, as in the Request-Id header.",
            "x-provenance": "inferred",
            "x-provenance-note": "Extension member so a logged error can be traced."
          }
        }
      },
      "EventType": {
        "type": "string",
        "enum": [
          "payment.pending",
          "payment.authorized",
          "payment.succeeded",
          "payment.failed",
          "payment.canceled",
          "payment.refunded"
        ],
        "description": "What happened: `payment.<status>` for the status the payment changed to.",
        "x-provenance": "inferred",
        "x-provenance-note": "The document states that webhooks notify status changes (6) but not the event kinds; one per status."
      },
      "Event": {
        "type": "object",
        "description": "A notification that a payment's status changed, with the payment as it was right after the change.",
        "required": [
          "id",
          "object",
          "type",
          "created_at",
          "data"
        ],
        "x-provenance": "documented",
        "x-provenance-ref": "6",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^evt_.+$",
            "description": "Event identifier; `evt_` followed by an opaque string. Also sent as `webhook-id`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Prefix chosen like the documented pay_ prefix."
          },
          "object": {
            "type": "string",
            "const": "event",
            "description": "Always `event`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Like the payment's object field."
          },
          "type": {
            "$ref": "#/components/schemas/EventType"
          },
          "created_at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the status changed, UTC, `YYYY-MM-DDThh:mm:ssZ`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same timestamp form as the payment's documented created_at."
          },
          "data": {
            "type": "object",
            "description": "The object the event is about.",
            "required": [
              "object"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "An envelope leaves room for events about other objects.",
            "properties": {
              "object": {
                "$ref": "#/components/schemas/Payment"
              }
            }
          }
        }
      },
      "PaymentPendingEvent": {
        "description": "The `payment.pending` event.",
        "x-provenance": "inferred",
        "x-provenance-note": "Event kinds are not shown; one event per payment status change.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Event"
          },
          {
            "type": "object",
            "required": [
              "type"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "Fixes the event's type.",
            "properties": {
              "type": {
                "type": "string",
                "const": "payment.pending",
                "x-provenance": "inferred",
                "x-provenance-note": "The status the payment changed to, as an event type."
              }
            }
          }
        ]
      },
      "PaymentAuthorizedEvent": {
        "description": "The `payment.authorized` event.",
        "x-provenance": "inferred",
        "x-provenance-note": "Event kinds are not shown; one event per payment status change.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Event"
          },
          {
            "type": "object",
            "required": [
              "type"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "Fixes the event's type.",
            "properties": {
              "type": {
                "type": "string",
                "const": "payment.authorized",
                "x-provenance": "inferred",
                "x-provenance-note": "The status the payment changed to, as an event type."
              }
            }
          }
        ]
      },
      "PaymentSucceededEvent": {
        "description": "The `payment.succeeded` event.",
        "x-provenance": "inferred",
        "x-provenance-note": "Event kinds are not shown; one event per payment status change.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Event"
          },
          {
            "type": "object",
            "required": [
              "type"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "Fixes the event's type.",
            "properties": {
              "type": {
                "type": "string",
                "const": "payment.succeeded",
                "x-provenance": "inferred",
                "x-provenance-note": "The status the payment changed to, as an event type."
              }
            }
          }
        ]
      },
      "PaymentFailedEvent": {
        "description": "The `payment.failed` event.",
        "x-provenance": "inferred",
        "x-provenance-note": "Event kinds are not shown; one event per payment status change.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Event"
          },
          {
            "type": "object",
            "required": [
              "type"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "Fixes the event's type.",
            "properties": {
              "type": {
                "type": "string",
                "const": "payment.failed",
                "x-provenance": "inferred",
                "x-provenance-note": "The status the payment changed to, as an event type."
              }
            }
          }
        ]
      },
      "PaymentCanceledEvent": {
        "description": "The `payment.canceled` event.",
        "x-provenance": "inferred",
        "x-provenance-note": "Event kinds are not shown; one event per payment status change.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Event"
          },
          {
            "type": "object",
            "required": [
              "type"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "Fixes the event's type.",
            "properties": {
              "type": {
                "type": "string",
                "const": "payment.canceled",
                "x-provenance": "inferred",
                "x-provenance-note": "The status the payment changed to, as an event type."
              }
            }
          }
        ]
      },
      "PaymentRefundedEvent": {
        "description": "The `payment.refunded` event.",
        "x-provenance": "inferred",
        "x-provenance-note": "Event kinds are not shown; one event per payment status change.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Event"
          },
          {
            "type": "object",
            "required": [
              "type"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "Fixes the event's type.",
            "properties": {
              "type": {
                "type": "string",
                "const": "payment.refunded",
                "x-provenance": "inferred",
                "x-provenance-note": "The status the payment changed to, as an event type."
              }
            }
          }
        ]
      },
      "CreateWebhookEndpointRequest": {
        "type": "object",
        "description": "A webhook endpoint to register.",
        "required": [
          "url"
        ],
        "additionalProperties": false,
        "maxProperties": 32,
        "x-provenance": "inferred",
        "x-provenance-note": "Registration is not shown; a URL and an optional event filter.",
        "properties": {
          "url": {
            "type": "string",
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://",
            "maxLength": 2048,
            "description": "The http(s) URL that receives the events with a POST: an absolute URI as RFC 3986 defines it (`format: uri`), so ASCII only. Write an international host name in its punycode form (`https://xn--bcher-kva.example/hooks`, not `https://bücher.example/hooks`) and percent-encode any other character outside ASCII. The scheme is case-insensitive, the port must be 0 to 65535, and credentials (`user:password@`) are refused.",
            "x-provenance": "inferred",
            "x-provenance-note": "Any http or https URL (the sandbox also allows http for local development), by RFC 3986 because every JSON Schema validator checks `format: uri` the same way, the SDK's and the contract's included."
          },
          "events": {
            "type": "array",
            "minItems": 1,
            "maxItems": 32,
            "uniqueItems": true,
            "description": "The event types to send; omit it to receive every event type.",
            "x-provenance": "inferred",
            "x-provenance-note": "An optional filter, as webhook providers commonly offer.",
            "items": {
              "$ref": "#/components/schemas/EventType"
            }
          }
        }
      },
      "WebhookEndpoint": {
        "type": "object",
        "description": "A URL that receives the key's events.",
        "required": [
          "id",
          "object",
          "url",
          "events",
          "status",
          "created_at"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Webhook management is not shown; modelled as its own object.",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^we_.+$",
            "description": "Endpoint identifier; `we_` followed by an opaque string.",
            "x-provenance": "inferred",
            "x-provenance-note": "Prefix chosen like the documented pay_ prefix."
          },
          "object": {
            "type": "string",
            "const": "webhook_endpoint",
            "description": "Always `webhook_endpoint`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Like the payment's object field."
          },
          "url": {
            "type": "string",
            "description": "The URL events are POSTed to.",
            "x-provenance": "inferred",
            "x-provenance-note": "As registered."
          },
          "events": {
            "type": [
              "array",
              "null"
            ],
            "description": "The event types sent to this endpoint; `null` means every type.",
            "x-provenance": "inferred",
            "x-provenance-note": "The registered filter; null when none was given.",
            "items": {
              "$ref": "#/components/schemas/EventType"
            }
          },
          "status": {
            "type": "string",
            "enum": [
              "enabled",
              "disabled"
            ],
            "description": "`disabled` once the endpoint answered `410 Gone`: it receives nothing more.",
            "x-provenance": "inferred",
            "x-provenance-note": "A receiver that answers 410 asks to stop receiving events."
          },
          "created_at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the endpoint was registered, UTC, `YYYY-MM-DDThh:mm:ssZ`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same timestamp form as the payment's documented created_at."
          }
        }
      },
      "WebhookEndpointWithSecret": {
        "description": "A newly registered endpoint, with the signing secret that is shown only once.",
        "x-provenance": "inferred",
        "x-provenance-note": "Signing is not shown; the secret is shown once so it cannot leak from listings.",
        "allOf": [
          {
            "$ref": "#/components/schemas/WebhookEndpoint"
          },
          {
            "type": "object",
            "required": [
              "secret"
            ],
            "x-provenance": "inferred",
            "x-provenance-note": "Adds the secret to the endpoint.",
            "properties": {
              "secret": {
                "type": "string",
                "pattern": "^whsec_[A-Za-z0-9+/]+={0,2}$",
                "description": "The signing secret, `whsec_` followed by base64: the key is the decoded bytes. Shown only in the create answer.",
                "x-provenance": "inferred",
                "x-provenance-note": "The Standard Webhooks specification's secret format."
              }
            }
          }
        ]
      },
      "WebhookEndpointList": {
        "type": "object",
        "description": "Every webhook endpoint of the key, oldest first.",
        "required": [
          "object",
          "data",
          "has_more"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Listing is not shown; the same list envelope as payments.",
        "properties": {
          "object": {
            "type": "string",
            "const": "list",
            "description": "Always `list`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Marks a list envelope."
          },
          "data": {
            "type": "array",
            "maxItems": 16,
            "description": "The endpoints, without their secrets.",
            "x-provenance": "inferred",
            "x-provenance-note": "At most 16 endpoints per key, so one page holds them all.",
            "items": {
              "$ref": "#/components/schemas/WebhookEndpoint"
            }
          },
          "has_more": {
            "type": "boolean",
            "description": "Always `false`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Kept for the shape of every list."
          }
        }
      },
      "DeletedWebhookEndpoint": {
        "type": "object",
        "description": "The marker of a deleted endpoint.",
        "required": [
          "id",
          "object",
          "deleted"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Deletion is not shown; a deletion marker with the id.",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^we_.+$",
            "description": "The deleted endpoint's id.",
            "x-provenance": "inferred",
            "x-provenance-note": "The id that was deleted."
          },
          "object": {
            "type": "string",
            "const": "webhook_endpoint",
            "description": "Always `webhook_endpoint`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Names what was deleted."
          },
          "deleted": {
            "type": "boolean",
            "const": true,
            "description": "Always `true`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Marks the deletion."
          }
        }
      },
      "FieldError": {
        "type": "object",
        "description": "One problem with one request field.",
        "required": [
          "param",
          "code",
          "message"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Error bodies are not shown; one entry per field problem.",
        "properties": {
          "param": {
            "type": "string",
            "description": "The field, as a dotted path (`payment_method.token`); empty for the body itself.",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the field at fault."
          },
          "code": {
            "type": "string",
            "description": "What is wrong: `required`, `type`, `minimum`, `unknown_field`, `invalid_value`, …",
            "x-provenance": "inferred",
            "x-provenance-note": "Stable kind of problem."
          },
          "message": {
            "type": "string",
            "description": "What was expected, in words.",
            "x-provenance": "inferred",
            "x-provenance-note": "Readable explanation."
          }
        }
      }
    }
  }
} as const;
