// The HTTP server's limits and their defaults: plain data, so the `./node` entry's types need no `@types/node`.

/** Limits of the HTTP server (`startMockServer`'s `http` option, the CLI's flags). */
export interface HttpLimits {
  /** A client must send all its request headers within this many ms (`--headers-timeout`). */
  headersTimeoutMs: number;
  /** A client must send its whole request within this many ms (`--request-timeout`). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms (`--keep-alive-timeout`). */
  keepAliveTimeoutMs: number;
  /**
   * Connections open at once (`--max-connections`); a new one beyond it takes the slot of an idle
   * connection or of a client holding more than an equal share, else it is closed.
   */
  maxConnections: number;
  /** Requests handled or queued per connection before the server stops reading it (`--max-pipelined`). */
  maxPipelined: number;
  /**
   * Bytes of request line and headers a request may have (`--max-header-size`); more is a 400
   * before the app reads anything (API requests need a few hundred bytes; Node's default is 16 KiB).
   */
  maxHeaderBytes: number;
  /**
   * Answer bytes a connection may leave unread before the server starts none of its further
   * requests (`--max-unsent-bytes`).
   */
  maxUnsentBytes: number;
  /** Answer bytes left unread this long close the connection, in ms (`--write-timeout`). */
  writeTimeoutMs: number;
}

/** The defaults of every HTTP limit. */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 5000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 1000,
  maxPipelined: 16,
  maxHeaderBytes: 8192,
  maxUnsentBytes: 262_144,
  writeTimeoutMs: 10_000,
};
