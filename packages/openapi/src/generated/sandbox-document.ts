// generated from spec/sandbox.yaml — do not edit; run `npm run generate` (pnpm generate)
// at the repository root after changing the spec.

export const sandboxDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Payment Service Mock — Sandbox Controls",
    "version": "0.1.0",
    "summary": "The mock sandbox's own controls; not part of the provider's API.",
    "description": "Controls that only the mock sandbox has: reset a key's data, move its clock, inject latency\nand faults, read the webhook delivery log and redeliver events. They are served under `/_sandbox`, never under `/v1`, and act only on the data\nof the calling `sk_test_` key, so parallel test runs never collide. Every element is\n`x-provenance: inferred`: the provider has no such endpoints.\n",
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
      "description": "The local mock sandbox."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "tags": [
    {
      "name": "Sandbox",
      "description": "Controls of the mock sandbox."
    }
  ],
  "paths": {
    "/_sandbox/reset": {
      "post": {
        "operationId": "resetSandbox",
        "summary": "Delete the calling key's data",
        "description": "Deletes the key's payments, refunds, idempotency records, faults, webhook endpoints, events and delivery log, stops its pending deliveries, and resets its clock offset.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; lets a test start from an empty account.",
        "responses": {
          "200": {
            "description": "The key's sandbox is empty again.",
            "x-provenance": "inferred",
            "x-provenance-note": "Sandbox control response.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SandboxReset"
                },
                "examples": {
                  "reset": {
                    "summary": "The key's data is deleted",
                    "value": {
                      "object": "sandbox_reset",
                      "deleted_payments": 4
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/_sandbox/clock": {
      "get": {
        "operationId": "getSandboxClock",
        "summary": "Read the key's sandbox clock",
        "description": "Returns the key's sandbox time (`now`) and how far it is ahead of the server's clock. Settlement of pending payments and webhook retries follow this clock.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; shows the time the key's sandbox runs on.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/Clock"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/_sandbox/clock/advance": {
      "post": {
        "operationId": "advanceSandboxClock",
        "summary": "Move the key's sandbox clock forward",
        "description": "Moves the key's clock forward by `seconds` and settles everything that has come due (pending payments, whose events are then sent) and starts the webhook retries that have come due, as if that time had passed. The clock never moves back.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; lets tests settle pending payments without waiting.",
        "requestBody": {
          "required": true,
          "x-provenance": "inferred",
          "x-provenance-note": "Sandbox control request.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/AdvanceClockRequest"
              },
              "examples": {
                "tenSeconds": {
                  "summary": "Move the clock 10 seconds ahead",
                  "value": {
                    "seconds": 10
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/Clock"
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "415": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/_sandbox/faults": {
      "get": {
        "operationId": "getSandboxFaults",
        "summary": "Read the key's injected faults",
        "description": "Returns the faults set for the key (latency, failures still to answer, dropped connections); an empty object when none is set.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; shows what faults are armed.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/Faults"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          }
        }
      },
      "put": {
        "operationId": "setSandboxFaults",
        "summary": "Inject latency and faults into the key's /v1 requests",
        "description": "Replaces the key's faults. `latency_ms` delays every /v1 response; `fail_next` answers the next `count` /v1 requests with `status` (and `Retry-After` when given) without touching any data; `drop_after_commit` makes the next `count` /v1 POSTs commit their change and then drop the connection before any response is sent, as a lost response would.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; lets SDKs and merchants test retries and timeouts.",
        "requestBody": {
          "required": true,
          "x-provenance": "inferred",
          "x-provenance-note": "Sandbox control request.",
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/Faults"
              },
              "examples": {
                "slowThenUnavailable": {
                  "summary": "250 ms latency, then one 503",
                  "value": {
                    "latency_ms": 250,
                    "fail_next": {
                      "count": 1,
                      "status": 503
                    }
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "$ref": "#/components/responses/Faults"
          },
          "400": {
            "$ref": "#/components/responses/Problem"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "413": {
            "$ref": "#/components/responses/Problem"
          },
          "415": {
            "$ref": "#/components/responses/Problem"
          }
        }
      },
      "delete": {
        "operationId": "clearSandboxFaults",
        "summary": "Remove the key's injected faults",
        "description": "Removes every fault set for the key; its next requests are answered normally, at once.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; back to normal service.",
        "responses": {
          "200": {
            "$ref": "#/components/responses/Faults"
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/_sandbox/webhook_deliveries": {
      "get": {
        "operationId": "listWebhookDeliveries",
        "summary": "List the key's webhook delivery attempts",
        "description": "Every attempt to deliver one of the key's events, newest first: which event and endpoint, when, the answer's status (or the error), the latency, the start of the answer's body, and when the next retry is due. The log keeps the key's last 500 attempts.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; shows what the webhook dispatcher did, for debugging receivers.",
        "parameters": [
          {
            "name": "event_id",
            "in": "query",
            "required": false,
            "description": "Only the attempts of this event.",
            "x-provenance": "inferred",
            "x-provenance-note": "Narrows the log to one event.",
            "schema": {
              "type": "string",
              "minLength": 1,
              "x-provenance": "inferred",
              "x-provenance-note": "An evt_ id; an unknown one gives an empty list."
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The delivery attempts.",
            "x-provenance": "inferred",
            "x-provenance-note": "Sandbox control response.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/WebhookDeliveryList"
                },
                "examples": {
                  "deliveries": {
                    "summary": "The delivery log",
                    "value": {
                      "object": "list",
                      "data": [
                        {
                          "object": "webhook_delivery",
                          "event_id": "evt_xNbIrcLjJvOwbu7w7yanL1z8",
                          "event_type": "payment.succeeded",
                          "endpoint_id": "we_FjUzJjioMCWODzBWZqfNd2uD",
                          "url": "https://example.com/webhooks/payments",
                          "attempt": 1,
                          "attempted_at": "2026-11-22T15:19:52Z",
                          "status": 200,
                          "error": null,
                          "latency_ms": 23,
                          "response_body": null,
                          "next_retry_at": null
                        },
                        {
                          "object": "webhook_delivery",
                          "event_id": "evt_xNbIrcLjJvOwbu7w7yanL1z8",
                          "event_type": "payment.succeeded",
                          "endpoint_id": "we_LiHNAzgkIyTc7V8T2B7FspR9",
                          "url": "https://example.com/webhooks/payments",
                          "attempt": 1,
                          "attempted_at": "2026-11-22T15:19:52Z",
                          "status": null,
                          "error": "connection_error: ENOTFOUND",
                          "latency_ms": 12,
                          "response_body": null,
                          "next_retry_at": "2026-11-22T15:19:57Z"
                        },
                        {
                          "object": "webhook_delivery",
                          "event_id": "evt_fDlZpLOMPf8HHQWvwMGWjtcj",
                          "event_type": "payment.succeeded",
                          "endpoint_id": "we_LiHNAzgkIyTc7V8T2B7FspR9",
                          "url": "https://example.com/webhooks/payments",
                          "attempt": 1,
                          "attempted_at": "2026-11-22T15:19:52Z",
                          "status": null,
                          "error": "connection_error: ENOTFOUND",
                          "latency_ms": 15,
                          "response_body": null,
                          "next_retry_at": "2026-11-22T15:19:56Z"
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
    "/_sandbox/events/{id}/redeliver": {
      "post": {
        "operationId": "redeliverEvent",
        "summary": "Deliver one of the key's events again",
        "description": "Sends the event again, as a new delivery with a fresh retry schedule, to every enabled endpoint whose filter matches it. The `webhook-id` stays the event's id, so a receiver that deduplicates ignores it. The key's last 1 000 events can be redelivered.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; lets a developer replay an event against a fixed receiver.",
        "parameters": [
          {
            "name": "id",
            "in": "path",
            "required": true,
            "description": "The event's id (`evt_…`).",
            "x-provenance": "inferred",
            "x-provenance-note": "Addresses one of the key's events.",
            "schema": {
              "type": "string",
              "minLength": 1,
              "x-provenance": "inferred",
              "x-provenance-note": "An unknown id is a 404."
            }
          }
        ],
        "responses": {
          "200": {
            "description": "The deliveries were queued.",
            "x-provenance": "inferred",
            "x-provenance-note": "Sandbox control response.",
            "headers": {
              "Request-Id": {
                "$ref": "#/components/headers/Request-Id"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/EventRedelivery"
                },
                "examples": {
                  "redelivered": {
                    "summary": "The event is queued again",
                    "value": {
                      "object": "event_redelivery",
                      "event_id": "evt_xNbIrcLjJvOwbu7w7yanL1z8",
                      "endpoints": 2
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "404": {
            "$ref": "#/components/responses/Problem"
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
        "description": "The same `sk_test_` key as the /v1 requests whose sandbox it controls.",
        "x-provenance": "inferred",
        "x-provenance-note": "Controls act on the calling key's own sandbox."
      }
    },
    "headers": {
      "Request-Id": {
        "description": "Identifies the request; present on every response.",
        "required": true,
        "x-provenance": "inferred",
        "x-provenance-note": "As on every /v1 response.",
        "example": "req_8kTq2LmN4pR7sV1x",
        "schema": {
          "type": "string",
          "pattern": "^req_[A-Za-z0-9]+$",
          "x-provenance": "inferred",
          "x-provenance-note": "req_ followed by random characters."
        }
      }
    },
    "responses": {
      "Problem": {
        "description": "An RFC 9457 problem, as in the /v1 API.",
        "x-provenance": "inferred",
        "x-provenance-note": "Same error model as the /v1 API.",
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
                "summary": "An invalid control request",
                "value": {
                  "type": "urn:payment-service:problem:invalid_request",
                  "title": "Invalid request",
                  "status": 400,
                  "detail": "seconds must be an integer ≥ 0 and ≤ 31536000.",
                  "code": "invalid_request",
                  "param": "seconds",
                  "errors": [
                    {
                      "param": "seconds",
                      "code": "minimum",
                      "message": "seconds must be an integer ≥ 0 and ≤ 31536000"
                    }
                  ],
                  "request_id": "req_KUBajQJDUt699aTkO2X7"
                }
              }
            }
          }
        }
      },
      "Clock": {
        "description": "The key's sandbox clock.",
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Clock"
            },
            "examples": {
              "clock": {
                "summary": "Ten seconds ahead",
                "value": {
                  "object": "sandbox_clock",
                  "now": "2026-11-22T15:19:52Z",
                  "offset_seconds": 10,
                  "settled_payments": 0
                }
              }
            }
          }
        }
      },
      "Faults": {
        "description": "The key's armed faults.",
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "headers": {
          "Request-Id": {
            "$ref": "#/components/headers/Request-Id"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Faults"
            },
            "examples": {
              "faults": {
                "summary": "Faults set",
                "value": {
                  "latency_ms": 250,
                  "fail_next": {
                    "count": 1,
                    "status": 503
                  }
                }
              }
            }
          }
        }
      }
    },
    "schemas": {
      "SandboxReset": {
        "type": "object",
        "required": [
          "object",
          "deleted_payments"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "properties": {
          "object": {
            "type": "string",
            "const": "sandbox_reset",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the object."
          },
          "deleted_payments": {
            "type": "integer",
            "minimum": 0,
            "description": "How many payments were deleted.",
            "x-provenance": "inferred",
            "x-provenance-note": "Tells what the reset removed."
          }
        }
      },
      "AdvanceClockRequest": {
        "type": "object",
        "required": [
          "seconds"
        ],
        "additionalProperties": false,
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control request.",
        "properties": {
          "seconds": {
            "type": "integer",
            "minimum": 0,
            "maximum": 31536000,
            "description": "How far to move the clock, in seconds (at most a year).",
            "x-provenance": "inferred",
            "x-provenance-note": "Whole seconds, like created_at."
          }
        }
      },
      "Clock": {
        "type": "object",
        "required": [
          "object",
          "now",
          "offset_seconds",
          "settled_payments"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "properties": {
          "object": {
            "type": "string",
            "const": "sandbox_clock",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the object."
          },
          "now": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "The key's sandbox time, UTC.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same form as created_at."
          },
          "offset_seconds": {
            "type": "integer",
            "minimum": 0,
            "description": "How far the key's clock runs ahead of the server's clock.",
            "x-provenance": "inferred",
            "x-provenance-note": "The sum of all advances since the last reset."
          },
          "settled_payments": {
            "type": "integer",
            "minimum": 0,
            "description": "How many pending payments this request settled (0 for a read).",
            "x-provenance": "inferred",
            "x-provenance-note": "Tells a test what advancing did."
          }
        }
      },
      "Faults": {
        "type": "object",
        "additionalProperties": false,
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox fault injection settings.",
        "properties": {
          "latency_ms": {
            "type": "integer",
            "minimum": 0,
            "maximum": 60000,
            "description": "Added to every /v1 response of the key.",
            "x-provenance": "inferred",
            "x-provenance-note": "Simulates a slow network or service."
          },
          "fail_next": {
            "type": "object",
            "required": [
              "count",
              "status"
            ],
            "additionalProperties": false,
            "description": "Answer the next `count` /v1 requests with `status`, changing no data.",
            "x-provenance": "inferred",
            "x-provenance-note": "Simulates rate limiting and outages.",
            "properties": {
              "count": {
                "type": "integer",
                "minimum": 0,
                "maximum": 1000,
                "description": "How many requests remain to fail.",
                "x-provenance": "inferred",
                "x-provenance-note": "Counts down with each failed request."
              },
              "status": {
                "type": "integer",
                "enum": [
                  429,
                  500,
                  502,
                  503,
                  504
                ],
                "description": "The status to answer with.",
                "x-provenance": "inferred",
                "x-provenance-note": "The statuses a client should retry."
              },
              "retry_after": {
                "type": "integer",
                "minimum": 0,
                "maximum": 3600,
                "description": "Seconds to send in `Retry-After`.",
                "x-provenance": "inferred",
                "x-provenance-note": "Lets a test check that the client honours Retry-After."
              }
            }
          },
          "drop_after_commit": {
            "type": "object",
            "required": [
              "count"
            ],
            "additionalProperties": false,
            "description": "The next `count` /v1 POSTs commit, then the connection drops with no response.",
            "x-provenance": "inferred",
            "x-provenance-note": "Simulates a lost response after the provider committed the change.",
            "properties": {
              "count": {
                "type": "integer",
                "minimum": 0,
                "maximum": 1000,
                "description": "How many POSTs remain to drop.",
                "x-provenance": "inferred",
                "x-provenance-note": "Counts down with each dropped response."
              }
            }
          }
        }
      },
      "WebhookDelivery": {
        "type": "object",
        "required": [
          "object",
          "event_id",
          "event_type",
          "endpoint_id",
          "url",
          "attempt",
          "attempted_at",
          "status",
          "error",
          "latency_ms",
          "response_body",
          "next_retry_at"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox delivery log entry.",
        "properties": {
          "object": {
            "type": "string",
            "const": "webhook_delivery",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the object."
          },
          "event_id": {
            "type": "string",
            "description": "The event (`evt_…`), as sent in `webhook-id`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Links the attempt to its event."
          },
          "event_type": {
            "type": "string",
            "description": "The event's type, such as `payment.succeeded`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Saves a lookup."
          },
          "endpoint_id": {
            "type": "string",
            "description": "The endpoint (`we_…`); `we_default` for the server's `--webhook-url` endpoint.",
            "x-provenance": "inferred",
            "x-provenance-note": "Links the attempt to its endpoint."
          },
          "url": {
            "type": "string",
            "description": "Where the event was POSTed.",
            "x-provenance": "inferred",
            "x-provenance-note": "The endpoint's URL."
          },
          "attempt": {
            "type": "integer",
            "minimum": 1,
            "description": "1 for the first attempt of a delivery, 2 for its first retry, and so on.",
            "x-provenance": "inferred",
            "x-provenance-note": "Counts attempts of one delivery."
          },
          "attempted_at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the attempt started, on the key's sandbox clock.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same form as created_at."
          },
          "status": {
            "type": [
              "integer",
              "null"
            ],
            "description": "The receiver's HTTP status; `null` when no answer came (see `error`).",
            "x-provenance": "inferred",
            "x-provenance-note": "What the receiver answered."
          },
          "error": {
            "type": [
              "string",
              "null"
            ],
            "description": "`timeout` or `connection_error: …` when no answer came, `dropped: …` when the key already had 10 000 attempts waiting; `null` otherwise.",
            "x-provenance": "inferred",
            "x-provenance-note": "Why no status was received."
          },
          "latency_ms": {
            "type": "integer",
            "minimum": 0,
            "description": "How long the attempt took, in real milliseconds.",
            "x-provenance": "inferred",
            "x-provenance-note": "Shows slow receivers."
          },
          "response_body": {
            "type": [
              "string",
              "null"
            ],
            "description": "The first 256 characters of the answer's body, or `null`.",
            "x-provenance": "inferred",
            "x-provenance-note": "Enough to see a receiver's error message."
          },
          "next_retry_at": {
            "oneOf": [
              {
                "$ref": "#/components/schemas/Timestamp"
              },
              {
                "type": "null"
              }
            ],
            "description": "When the next attempt is due on the key's clock; `null` when none follows.",
            "x-provenance": "inferred",
            "x-provenance-note": "Tells a test how far to advance the clock."
          }
        }
      },
      "WebhookDeliveryList": {
        "type": "object",
        "required": [
          "object",
          "data"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "properties": {
          "object": {
            "type": "string",
            "const": "list",
            "x-provenance": "inferred",
            "x-provenance-note": "Marks a list envelope."
          },
          "data": {
            "type": "array",
            "description": "The attempts, newest first.",
            "x-provenance": "inferred",
            "x-provenance-note": "The delivery log.",
            "items": {
              "$ref": "#/components/schemas/WebhookDelivery"
            }
          }
        }
      },
      "EventRedelivery": {
        "type": "object",
        "required": [
          "object",
          "event_id",
          "endpoints"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "properties": {
          "object": {
            "type": "string",
            "const": "event_redelivery",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the object."
          },
          "event_id": {
            "type": "string",
            "x-provenance": "inferred",
            "x-provenance-note": "The redelivered event."
          },
          "endpoints": {
            "type": "integer",
            "minimum": 0,
            "description": "How many endpoints the event was queued for.",
            "x-provenance": "inferred",
            "x-provenance-note": "Tells whether anything will be sent."
          }
        }
      },
      "Problem": {
        "type": "object",
        "required": [
          "type",
          "title",
          "status",
          "detail",
          "code",
          "request_id"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Same as the /v1 Problem.",
        "properties": {
          "type": {
            "type": "string",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member."
          },
          "title": {
            "type": "string",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member."
          },
          "status": {
            "type": "integer",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member."
          },
          "detail": {
            "type": "string",
            "x-provenance": "inferred",
            "x-provenance-note": "RFC 9457 member."
          },
          "code": {
            "type": "string",
            "x-provenance": "inferred",
            "x-provenance-note": "Stable machine-readable code."
          },
          "param": {
            "type": "string",
            "x-provenance": "inferred",
            "x-provenance-note": "The field at fault."
          },
          "errors": {
            "type": "array",
            "x-provenance": "inferred",
            "x-provenance-note": "Every field problem.",
            "items": {
              "type": "object",
              "required": [
                "param",
                "code",
                "message"
              ],
              "x-provenance": "inferred",
              "x-provenance-note": "One field problem.",
              "properties": {
                "param": {
                  "type": "string",
                  "x-provenance": "inferred",
                  "x-provenance-note": "The field."
                },
                "code": {
                  "type": "string",
                  "x-provenance": "inferred",
                  "x-provenance-note": "The kind of problem."
                },
                "message": {
                  "type": "string",
                  "x-provenance": "inferred",
                  "x-provenance-note": "What was expected."
                }
              }
            }
          },
          "request_id": {
            "type": "string",
            "x-provenance": "inferred",
            "x-provenance-note": "The request's id."
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
      }
    }
  }
} as const;
