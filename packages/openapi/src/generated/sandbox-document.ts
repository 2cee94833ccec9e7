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
    "/_sandbox/health": {
      "get": {
        "operationId": "getSandboxHealth",
        "summary": "Check that the sandbox is up",
        "description": "Answers 200 with `status: ok` and the sandbox's version once it serves requests, and 503 `store_unavailable` while its store cannot serve them (a Valkey/Redis server that is unreachable, does not answer or holds another format): a readiness probe for scripts, CI and load balancers. It needs no key (a key sent is checked as by every control, so a live key is still refused), reads and changes no key's data, and shows nothing about the store but whether it serves.",
        "tags": [
          "Sandbox"
        ],
        "security": [
          {},
          {
            "bearerAuth": []
          }
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; lets a script wait until the sandbox answers.",
        "responses": {
          "200": {
            "description": "The sandbox serves requests.",
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
                  "$ref": "#/components/schemas/SandboxHealth"
                },
                "examples": {
                  "ok": {
                    "summary": "The sandbox is up",
                    "value": {
                      "object": "sandbox_health",
                      "status": "ok",
                      "version": "0.1.0"
                    }
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Problem"
          },
          "503": {
            "$ref": "#/components/responses/Problem"
          }
        }
      }
    },
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
    },
    "/_sandbox/inspector": {
      "get": {
        "operationId": "getSandboxInspector",
        "summary": "Read the key's inspector snapshot",
        "description": "One consistent snapshot of the calling key's sandbox, as the console's live inspector shows it: the key's clock and faults, its last 50 requests (method, path, status, problem `code`, `Request-Id`, latency, and both bodies with secrets masked), its 50 newest payments with their status timelines, and its 100 newest events with every delivery attempt. It only ever shows the calling key's own data. Reading it changes nothing, and `GET /_sandbox/…` requests (this one included) are not recorded.",
        "tags": [
          "Sandbox"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control; feeds the console's inspector, which polls it.",
        "responses": {
          "200": {
            "description": "The key's inspector snapshot.",
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
                  "$ref": "#/components/schemas/Inspector"
                },
                "examples": {
                  "snapshot": {
                    "summary": "A settled payment and its delivered event",
                    "value": {
                      "object": "sandbox_inspector",
                      "clock": {
                        "object": "sandbox_clock",
                        "now": "2026-11-22T15:20:02Z",
                        "offset_seconds": 10,
                        "settled_payments": 0
                      },
                      "faults": {},
                      "requests": [
                        {
                          "object": "recorded_request",
                          "request_id": "req_KUBajQJDUt699aTkO2X7",
                          "method": "POST",
                          "path": "/v1/payments",
                          "status": 201,
                          "code": null,
                          "latency_ms": 2,
                          "received_at": "2026-11-22T15:19:52Z",
                          "request_body": "{\"amount\":1000,\"currency\":\"KZT\",\"payment_method\":{\"type\":\"token\",\"token\":\"tok_test_pending\"}}",
                          "response_body": "{\"id\":\"pay_7Hq2LmN4pR7sV1xKUBajQJDU\",\"object\":\"payment\",\"status\":\"PENDING\"}",
                          "truncated": false
                        }
                      ],
                      "payments": [
                        {
                          "payment": {
                            "id": "pay_7Hq2LmN4pR7sV1xKUBajQJDU",
                            "object": "payment",
                            "amount": 1000,
                            "currency": "KZT",
                            "status": "SUCCEEDED",
                            "capture": true,
                            "amount_captured": 1000,
                            "amount_refunded": 0,
                            "description": null,
                            "failure_code": null,
                            "failure_message": null,
                            "created_at": "2026-11-22T15:19:52Z"
                          },
                          "timeline": [
                            {
                              "at": "2026-11-22T15:19:52Z",
                              "change": "created",
                              "status": "PENDING",
                              "amount": 1000
                            },
                            {
                              "at": "2026-11-22T15:19:57Z",
                              "change": "settled",
                              "status": "SUCCEEDED",
                              "amount": 1000
                            }
                          ]
                        }
                      ],
                      "events": [
                        {
                          "id": "evt_xNbIrcLjJvOwbu7w7yanL1z8",
                          "type": "payment.succeeded",
                          "created_at": "2026-11-22T15:19:57Z",
                          "payment_id": "pay_7Hq2LmN4pR7sV1xKUBajQJDU",
                          "deliveries": [
                            {
                              "object": "webhook_delivery",
                              "event_id": "evt_xNbIrcLjJvOwbu7w7yanL1z8",
                              "event_type": "payment.succeeded",
                              "endpoint_id": "we_FjUzJjioMCWODzBWZqfNd2uD",
                              "url": "https://example.com/webhooks/payments",
                              "attempt": 1,
                              "attempted_at": "2026-11-22T15:19:57Z",
                              "status": 200,
                              "error": null,
                              "latency_ms": 23,
                              "response_body": "ok",
                              "next_retry_at": null
                            }
                          ]
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
      "SandboxHealth": {
        "type": "object",
        "required": [
          "object",
          "status",
          "version"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "properties": {
          "object": {
            "type": "string",
            "const": "sandbox_health",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the object."
          },
          "status": {
            "type": "string",
            "const": "ok",
            "description": "Always `ok`; a sandbox that cannot serve answers 503 or not at all.",
            "x-provenance": "inferred",
            "x-provenance-note": "The readiness probe's answer."
          },
          "version": {
            "type": "string",
            "description": "The version of @payment-service/mock serving the request.",
            "x-provenance": "inferred",
            "x-provenance-note": "Tells a CI log which sandbox answered."
          },
          "log": {
            "$ref": "#/components/schemas/SandboxLogHealth"
          }
        }
      },
      "SandboxLogHealth": {
        "type": "object",
        "required": [
          "dropped_lines",
          "last_error"
        ],
        "description": "The `payment-service-mock` command's log output (stdout, or stderr with `--ready-json`): a write that fails (a full disk under a redirected log, a closed pipe) is dropped and counted, never the end of the sandbox. Absent when the sandbox runs in a process of yours.",
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response.",
        "properties": {
          "dropped_lines": {
            "type": "integer",
            "minimum": 0,
            "description": "Log lines dropped since the start because writing them failed.",
            "x-provenance": "inferred",
            "x-provenance-note": "Shows an operator that the log has gaps."
          },
          "last_error": {
            "type": [
              "string",
              "null"
            ],
            "description": "Why the last dropped write failed (such as `ENOSPC`), or null if none was.",
            "x-provenance": "inferred",
            "x-provenance-note": "Says what to fix."
          }
        }
      },
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
        "maxProperties": 32,
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
        "maxProperties": 32,
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox fault injection settings.",
        "properties": {
          "latency_ms": {
            "type": "integer",
            "minimum": 0,
            "maximum": 60000,
            "description": "Added to every /v1 response of the key. At most 16 of the key's requests wait at once; more are answered at once with 429 `rate_limited` and `Retry-After`.",
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
            "maxProperties": 32,
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
            "maxProperties": 32,
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
      "Inspector": {
        "type": "object",
        "required": [
          "object",
          "clock",
          "faults",
          "requests",
          "payments",
          "events"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "Sandbox control response; what the console's inspector shows.",
        "properties": {
          "object": {
            "type": "string",
            "const": "sandbox_inspector",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the object."
          },
          "clock": {
            "$ref": "#/components/schemas/Clock"
          },
          "faults": {
            "$ref": "#/components/schemas/Faults"
          },
          "requests": {
            "type": "array",
            "maxItems": 50,
            "description": "The key's last 50 requests, newest first, within 64 KiB per key (the oldest go first). `GET /_sandbox/…` reads are not recorded, nor requests that fail authentication.",
            "x-provenance": "inferred",
            "x-provenance-note": "Answers \"what did my code just send, and what came back\".",
            "items": {
              "$ref": "#/components/schemas/RecordedRequest"
            }
          },
          "payments": {
            "type": "array",
            "maxItems": 50,
            "description": "The key's 50 newest payments, newest first, each with its status timeline.",
            "x-provenance": "inferred",
            "x-provenance-note": "Follows each payment through its lifecycle.",
            "items": {
              "$ref": "#/components/schemas/InspectedPayment"
            }
          },
          "events": {
            "type": "array",
            "maxItems": 100,
            "description": "The key's 100 newest events, newest first, each with its delivery attempts. Events are made only while an endpoint listens to the key.",
            "x-provenance": "inferred",
            "x-provenance-note": "Answers \"which webhooks went out, and why did that one fail\".",
            "items": {
              "$ref": "#/components/schemas/InspectedEvent"
            }
          }
        }
      },
      "RecordedRequest": {
        "type": "object",
        "required": [
          "object",
          "request_id",
          "method",
          "path",
          "status",
          "code",
          "latency_ms",
          "received_at",
          "request_body",
          "response_body",
          "truncated"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "One request of the key, as the sandbox answered it.",
        "properties": {
          "object": {
            "type": "string",
            "const": "recorded_request",
            "x-provenance": "inferred",
            "x-provenance-note": "Names the object."
          },
          "request_id": {
            "type": "string",
            "pattern": "^req_[A-Za-z0-9]+$",
            "description": "The `Request-Id` the answer carried.",
            "x-provenance": "inferred",
            "x-provenance-note": "Matches the request to the client's own logs."
          },
          "method": {
            "type": "string",
            "pattern": "^[A-Z]+$",
            "description": "The HTTP method.",
            "x-provenance": "inferred",
            "x-provenance-note": "As sent."
          },
          "path": {
            "type": "string",
            "maxLength": 8192,
            "description": "The path as sent, without the query; anything that looks like a secret is masked.",
            "x-provenance": "inferred",
            "x-provenance-note": "Secrets masked as in the sandbox's log lines."
          },
          "status": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 100,
            "maximum": 599,
            "description": "The answer's status; `null` when none was sent (a `drop_after_commit` fault dropped the connection, or the client closed it before its request body arrived).",
            "x-provenance": "inferred",
            "x-provenance-note": "Shows dropped answers apart from answered ones."
          },
          "code": {
            "type": [
              "string",
              "null"
            ],
            "description": "The problem `code` of a 4xx/5xx answer, else `null`.",
            "x-provenance": "inferred",
            "x-provenance-note": "The same code as the answer's problem+json body."
          },
          "latency_ms": {
            "type": "integer",
            "minimum": 0,
            "description": "How long the sandbox took to answer, in real milliseconds (injected latency included).",
            "x-provenance": "inferred",
            "x-provenance-note": "Measured by the sandbox around the whole request."
          },
          "received_at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the request arrived, on the key's sandbox clock.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same clock as the payments' created_at."
          },
          "request_body": {
            "type": [
              "string",
              "null"
            ],
            "maxLength": 4096,
            "description": "The request body as sent (at most 4 096 characters), secrets masked; `null` without a body.",
            "x-provenance": "inferred",
            "x-provenance-note": "Keys, webhook secrets and URL credentials or query values are masked."
          },
          "response_body": {
            "type": [
              "string",
              "null"
            ],
            "maxLength": 4096,
            "description": "The answer's body (at most 4 096 characters), secrets masked; `null` without a body.",
            "x-provenance": "inferred",
            "x-provenance-note": "A new endpoint's signing secret is masked too."
          },
          "truncated": {
            "type": "boolean",
            "description": "Whether a body was cut at 4 096 characters.",
            "x-provenance": "inferred",
            "x-provenance-note": "Tells the reader the body shown is not whole."
          }
        }
      },
      "InspectedPayment": {
        "type": "object",
        "required": [
          "payment",
          "timeline"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "A payment with the history the sandbox keeps of it.",
        "properties": {
          "payment": {
            "$ref": "#/components/schemas/Payment"
          },
          "timeline": {
            "type": "array",
            "minItems": 1,
            "maxItems": 32,
            "description": "Every change of the payment, oldest first: its creation, then each capture, settlement, cancel and refund (at most 32; the oldest after the creation go first).",
            "x-provenance": "inferred",
            "x-provenance-note": "Kept by the sandbox for the inspector; the provider shows no history.",
            "items": {
              "$ref": "#/components/schemas/TimelineEntry"
            }
          }
        }
      },
      "TimelineEntry": {
        "type": "object",
        "required": [
          "at",
          "change",
          "status",
          "amount"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "One change of a payment.",
        "properties": {
          "at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When it happened, on the key's sandbox clock.",
            "x-provenance": "inferred",
            "x-provenance-note": "Same clock as created_at."
          },
          "change": {
            "type": "string",
            "enum": [
              "created",
              "captured",
              "settled",
              "canceled",
              "refunded"
            ],
            "description": "What happened.",
            "x-provenance": "inferred",
            "x-provenance-note": "The operations and the settlement that change a payment."
          },
          "status": {
            "$ref": "#/components/schemas/PaymentStatus"
          },
          "amount": {
            "type": "integer",
            "minimum": 0,
            "description": "The amount concerned, in minor units (created, captured, settled or refunded; 0 for a cancel).",
            "x-provenance": "inferred",
            "x-provenance-note": "Shows partial captures and refunds."
          }
        }
      },
      "InspectedEvent": {
        "type": "object",
        "required": [
          "id",
          "type",
          "created_at",
          "payment_id",
          "deliveries"
        ],
        "x-provenance": "inferred",
        "x-provenance-note": "An event of the key with what the dispatcher did with it.",
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^evt_[A-Za-z0-9]+$",
            "description": "The event's id (the `webhook-id` of its deliveries).",
            "x-provenance": "inferred",
            "x-provenance-note": "As in the event body."
          },
          "type": {
            "$ref": "#/components/schemas/EventType"
          },
          "created_at": {
            "$ref": "#/components/schemas/Timestamp",
            "description": "When the event was made, on the key's sandbox clock.",
            "x-provenance": "inferred",
            "x-provenance-note": "As in the event body."
          },
          "payment_id": {
            "type": "string",
            "description": "The payment the event is about.",
            "x-provenance": "inferred",
            "x-provenance-note": "The event body's data.object.id."
          },
          "deliveries": {
            "type": "array",
            "description": "Every logged attempt to deliver it, oldest first (the log keeps the key's last 500).",
            "x-provenance": "inferred",
            "x-provenance-note": "The same entries as the delivery log.",
            "items": {
              "$ref": "#/components/schemas/WebhookDelivery"
            }
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
      "Amount": {
        "type": "integer",
        "minimum": 1,
        "maximum": 999999999999,
        "description": "A whole number of minor currency units (tiyn for KZT, kopecks for RUB), from 1 to 999 999 999 999.",
        "x-provenance": "inferred",
        "x-provenance-note": "The document states an integer whole number; the unit (minor units) and the bounds are ours: a positive amount that stays a safe JavaScript integer."
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
      }
    }
  }
} as const;
