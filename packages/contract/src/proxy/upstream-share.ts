// The proxy's connections to its target, shared fairly: at most so many requests in flight, one client at most half of them, the rest waiting in their client's own queue (served in turn across clients), bounded.

/** Requests to the target in flight at once, without `maxInFlight`. */
export const DEFAULT_MAX_IN_FLIGHT = 256;
/** Requests one client may have waiting, without `maxWaitingPerClient`; past it the proxy answers 503. */
export const DEFAULT_MAX_WAITING_PER_CLIENT = 1024;

/** Options of `createUpstreamShare`. */
export interface UpstreamShareOptions {
  /** Requests to the target in flight at once, at most. Default 256. */
  maxInFlight?: number;
  /** One client's requests in flight, at most. Default half of `maxInFlight`. */
  maxPerClient?: number;
  /** One client's requests waiting for a turn, at most. Default 1 024. */
  maxWaitingPerClient?: number;
}

interface Client {
  inFlight: number;
  waiting: Array<(release: () => void) => void>;
}

/** A request's place: granted (or to be), and how to give it up. */
export interface UpstreamTurn {
  /** Gives the place up: the slot if granted, the place in the queue if not. Safe to call twice. */
  cancel(): void;
}

/**
 * Creates the share. `take(client, start)` calls `start(release)` once the client's request may go
 * to the target (at once, or when its turn comes); `release` (or `cancel`) frees the slot for the
 * next. A client is whatever the caller names (the proxy: the app's address and its key).
 *
 * @example
 * const share = createUpstreamShare({ maxInFlight: 256 });
 * const turn = share.take('127.0.0.1 Bearer sk_test_…', (release) => send(release));
 * if (turn === 'full') answer503();
 */
export function createUpstreamShare(options: UpstreamShareOptions = {}) {
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const maxPerClient = options.maxPerClient ?? Math.max(1, Math.floor(maxInFlight / 2));
  const maxWaiting = options.maxWaitingPerClient ?? DEFAULT_MAX_WAITING_PER_CLIENT;
  const clients = new Map<string, Client>();
  let inFlight = 0;

  const forget = (name: string, client: Client) => {
    if (client.inFlight === 0 && client.waiting.length === 0) clients.delete(name);
  };

  /** Grants the free slots to waiting clients in turn: the one served moves to the back. */
  function grant() {
    let served = true;
    while (inFlight < maxInFlight && served) {
      served = false;
      for (const [name, client] of clients) {
        if (client.waiting.length === 0 || client.inFlight >= maxPerClient) continue;
        const start = client.waiting.shift() as (release: () => void) => void;
        clients.delete(name);
        clients.set(name, client);
        start(slot(name, client));
        served = true;
        break;
      }
    }
  }

  function slot(name: string, client: Client): () => void {
    inFlight += 1;
    client.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      inFlight -= 1;
      client.inFlight -= 1;
      forget(name, client);
      grant();
    };
  }

  return {
    /** Asks for a slot; `'full'` when the client already has `maxWaitingPerClient` waiting. */
    take(name: string, start: (release: () => void) => void): UpstreamTurn | 'full' {
      let client = clients.get(name);
      if (!client) {
        client = { inFlight: 0, waiting: [] };
        clients.set(name, client);
      }
      const own = client;
      let release: (() => void) | undefined;
      let cancelled = false;
      const begin = (granted: () => void) => {
        release = granted;
        if (!cancelled) start(granted);
        else granted();
      };
      if (inFlight < maxInFlight && own.inFlight < maxPerClient && own.waiting.length === 0)
        begin(slot(name, own));
      else if (own.waiting.length >= maxWaiting) {
        forget(name, own);
        return 'full';
      } else own.waiting.push(begin);
      return {
        cancel() {
          if (cancelled) return;
          cancelled = true;
          if (release) return release();
          const index = own.waiting.indexOf(begin);
          if (index !== -1) own.waiting.splice(index, 1);
          forget(name, own);
        },
      };
    },
    /** Requests in flight now. */
    get inFlight() {
      return inFlight;
    },
    /** Requests waiting for a turn now, all clients together. */
    get waiting() {
      let count = 0;
      for (const client of clients.values()) count += client.waiting.length;
      return count;
    },
  };
}

/** The share's type. */
export type UpstreamShare = ReturnType<typeof createUpstreamShare>;
