// The bounds every store keeps: the caps and byte budgets a sandbox key and the whole sandbox are held to.

/** The memory bounds of a store, as the server's options set them. */
export interface StoreLimits {
  maxPaymentsPerKey: number;
  maxPaymentsTotal: number;
  /** Idempotency records kept per key and in total follow the payment caps. */
  maxIdempotencyRecordsPerKey: number;
  maxIdempotencyRecordsTotal: number;
  /** Accounts kept; beyond it the least recently used one is forgotten if it is idle. */
  maxAccounts: number;
  /** Bytes all accounts may hold together; beyond it new work is refused (`sandbox_full`). */
  memoryBudgetBytes: number;
  /** Bytes one key may hold; beyond it the key's own oldest data is forgotten. */
  keyMemoryBudgetBytes: number;
  /** An account unused this long (ms) is idle: it may be forgotten to make room. */
  idleMs: number;
}

/** The whole sandbox's data budget by default (the process stays under 512 MiB RSS). */
export const DEFAULT_MEMORY_BUDGET_BYTES = 256 * 1024 * 1024;
/** One key's data budget by default; beyond it the key's own oldest data goes. */
export const DEFAULT_KEY_MEMORY_BUDGET_BYTES = 16 * 1024 * 1024;
/** A key unused for this long may be forgotten when the sandbox is full (and the eviction logged). */
export const IDLE_ACCOUNT_MS = 60 * 60 * 1000;

/** Requests one key's log keeps. */
export const MAX_RECORDED_REQUESTS = 50;
/** Bytes one key's log may hold; beyond it the oldest requests go first. */
export const MAX_REQUEST_LOG_BYTES = 64 * 1024;
/** Characters of a body that are kept. */
export const MAX_RECORDED_BODY_CHARS = 4096;

/** Endpoints one key may register. */
export const MAX_ENDPOINTS_PER_KEY = 16;
/** Events one key keeps for redelivery; the oldest is forgotten first. */
export const MAX_EVENTS_PER_KEY = 1000;
/** Delivery attempts one key's log keeps; the oldest is dropped first. */
export const MAX_LOG_ENTRIES_PER_KEY = 500;
/** Attempts one key may have waiting; beyond it a new delivery is dropped (and logged). */
export const MAX_QUEUED_PER_KEY = 10_000;
