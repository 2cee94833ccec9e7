// The HTTP server's limits and their defaults: plain data, so the `./node` entry's types need no `@types/node`.

/** Limits of the HTTP server (`startMockServer`'s `http` option, the CLI's flags). */
export interface HttpLimits {
  /** A client must send all its request headers within this many ms (`--headers-timeout`). */
  headersTimeoutMs: number;
  /** A client must send its whole request within this many ms (`--request-timeout`). */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this many ms (`--keep-alive-timeout`). */
  keepAliveTimeoutMs: number;
  /** Connections open at once; more are closed on arrival (`--max-connections`). */
  maxConnections: number;
  /** Requests handled or queued per connection before the server stops reading it (`--max-pipelined`). */
  maxPipelined: number;
  /**
   * Bytes of request line and headers a request may have (`--max-header-size`); more is a 400
   * before the app reads anything (API requests need a few hundred bytes; Node's default is 16 KiB).
   */
  maxHeaderBytes: number;
}

/** The defaults of every HTTP limit. */
export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 5000,
  requestTimeoutMs: 10_000,
  keepAliveTimeoutMs: 5000,
  maxConnections: 1000,
  maxPipelined: 16,
  maxHeaderBytes: 8192,
};
