// The HTTP server's connections: a fair cap on how many are open, pipelining and unsent answers bounded per connection.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The limits the connection table enforces (a subset of the server's `HttpLimits`). */
export interface ConnectionLimits {
  /** Connections open at once; a new one beyond it takes the slot of an idle or unfair one. */
  maxConnections: number;
  /** Requests handled or queued per connection before the server stops reading it. */
  maxPipelined: number;
  /** Answer bytes a connection may leave unread before no further request of it is started. */
  maxUnsentBytes: number;
  /** How long answer bytes may wait unread before the connection is closed, in ms. */
  writeTimeoutMs: number;
}

/** What the server knows of one open connection. */
interface Connection {
  socket: Socket;
  /** Requests being answered. */
  active: number;
  /** Requests waiting for their turn (pipelining, unread answers). */
  waiting: (() => void)[];
  /** The `Authorization` of its latest request: who holds the slot (never logged). */
  holder: string | undefined;
  /** Whether it has had a request: a kept-alive connection with none in flight is idle. */
  served: boolean;
  /** When it last started or finished a request (performance.now()). */
  lastUsed: number;
  writeTimer: ReturnType<typeof setTimeout> | undefined;
}

/** The server's table of open connections. */
export interface Connections {
  /** Registers a new connection (the server's `connection` event), making room when full. */
  accept(socket: Socket): void;
  /** Runs `handle` now, or once the connection may start another request. */
  admit(request: IncomingMessage, response: ServerResponse, handle: () => void): void;
  /** Resolves when no request is in flight. */
  drained(): Promise<void>;
  /** How many connections are open. */
  readonly size: number;
}

/**
 * A table of connections that keeps every client's share of the server:
 * - at `maxConnections`, a new connection takes the slot of the connection idle the longest
 *   (kept alive with no request in flight), else of the oldest connection of the holder (the
 *   `Authorization` sent) that holds more than an equal share; only when neither exists is the
 *   new one closed, so one key opening connections cannot lock the others out;
 * - a connection stops being read while `maxPipelined` of its requests are in flight or waiting,
 *   and starts no request while more than `maxUnsentBytes` of its answers are unread; answer
 *   bytes left unread for `writeTimeoutMs` close it, so a client that never reads holds little.
 *
 * @example
 * const connections = createConnections(DEFAULT_HTTP_LIMITS);
 * server.on('connection', (socket) => connections.accept(socket));
 * server.on('request', (req, res) => connections.admit(req, res, () => listener(req, res)));
 */
export function createConnections(limits: ConnectionLimits): Connections {
  const open = new Map<Socket, Connection>();
  let inFlight = 0;
  let onDrained: (() => void) | undefined;

  const startWaiting = (connection: Connection) => {
    if (connection.socket.destroyed) {
      connection.waiting.length = 0;
      return;
    }
    while (
      connection.waiting.length > 0 &&
      connection.active < limits.maxPipelined &&
      connection.socket.writableLength <= limits.maxUnsentBytes
    ) {
      connection.waiting.shift()?.();
    }
    if (connection.active + connection.waiting.length < limits.maxPipelined) {
      connection.socket.resume();
    }
  };

  const watchUnsent = (connection: Connection) => {
    const { socket } = connection;
    if (socket.writableLength === 0 || connection.writeTimer !== undefined) return;
    let unsent = socket.writableLength;
    const check = () => {
      connection.writeTimer = undefined;
      if (socket.destroyed) return;
      startWaiting(connection);
      if (socket.writableLength === 0) return;
      // Unread for a whole period, or no byte read meanwhile: the client does not read.
      if (socket.writableLength >= unsent) {
        socket.destroy();
        return;
      }
      unsent = socket.writableLength;
      connection.writeTimer = setTimeout(check, limits.writeTimeoutMs);
      connection.writeTimer.unref?.();
    };
    connection.writeTimer = setTimeout(check, limits.writeTimeoutMs);
    connection.writeTimer.unref?.();
  };

  /** The connection whose slot a newcomer takes, if any may be taken. */
  const evictable = (): Connection | undefined => {
    let idle: Connection | undefined;
    const holders = new Map<string, Connection[]>();
    for (const connection of open.values()) {
      if (connection.active === 0 && connection.waiting.length === 0) {
        if (connection.served && (idle === undefined || connection.lastUsed < idle.lastUsed)) {
          idle = connection;
        }
        continue;
      }
      if (connection.holder === undefined) continue;
      const held = holders.get(connection.holder);
      if (held === undefined) holders.set(connection.holder, [connection]);
      else held.push(connection);
    }
    if (idle !== undefined) return idle;
    // An equal share among the holders and the newcomer, who may be another client.
    const share = Math.floor(limits.maxConnections / (holders.size + 1));
    let largest: Connection[] | undefined;
    for (const held of holders.values()) {
      if (largest === undefined || held.length > largest.length) largest = held;
    }
    if (largest === undefined || largest.length <= share) return undefined;
    return largest.reduce((oldest, connection) =>
      connection.lastUsed < oldest.lastUsed ? connection : oldest,
    );
  };

  const accept = (socket: Socket) => {
    if (open.size >= limits.maxConnections) {
      const victim = evictable();
      if (victim === undefined) {
        socket.destroy();
        return;
      }
      victim.socket.destroy();
      open.delete(victim.socket);
    }
    const connection: Connection = {
      socket,
      active: 0,
      waiting: [],
      holder: undefined,
      served: false,
      lastUsed: performance.now(),
      writeTimer: undefined,
    };
    open.set(socket, connection);
    socket.on('drain', () => startWaiting(connection));
    socket.once('close', () => {
      if (open.get(socket) === connection) open.delete(socket);
      clearTimeout(connection.writeTimer);
      // Requests that waited their turn on it are never started for a client that is gone.
      connection.waiting.length = 0;
    });
  };

  return {
    get size() {
      return open.size;
    },
    accept,
    admit(request, response, handle) {
      const socket = request.socket;
      let connection = open.get(socket);
      if (connection === undefined) {
        // Not seen by `accept` (a server that was not wired to it): track it from here.
        accept(socket);
        connection = open.get(socket);
        if (connection === undefined) return;
      }
      const state = connection;
      state.holder = request.headers.authorization;
      state.served = true;
      // Counted in flight once started: a request still waiting when its socket closes never is.
      const start = () => {
        inFlight += 1;
        state.active += 1;
        state.lastUsed = performance.now();
        // Once the answer is written: bytes the kernel did not take wait for the client to read.
        response.on('prefinish', () => watchUnsent(state));
        // A response closes once: `on` spares the wrapper `once` makes per request.
        response.on('close', () => {
          state.active -= 1;
          state.lastUsed = performance.now();
          inFlight -= 1;
          startWaiting(state);
          if (inFlight === 0) onDrained?.();
        });
        handle();
      };
      if (
        state.active < limits.maxPipelined &&
        state.waiting.length === 0 &&
        socket.writableLength <= limits.maxUnsentBytes
      ) {
        start();
      } else {
        state.waiting.push(start);
      }
      if (state.active + state.waiting.length >= limits.maxPipelined) socket.pause();
    },
    drained() {
      if (inFlight === 0) return Promise.resolve();
      return new Promise((resolve) => {
        onDrained = resolve;
      });
    },
  };
}
