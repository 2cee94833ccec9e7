// What a sandbox allows by where it listens: the names in `Host` it answers (the DNS-rebinding guard), and whether keys' webhooks may reach its loopback.

/** The names a server answers besides loopback ones, or `'any'` for every name. */
export type AllowedHosts = 'any' | readonly string[];

/**
 * Whether a listen address or a host name reaches only this machine: `localhost` and its
 * subdomains, `127.0.0.0/8` and `::1`.
 *
 * @example
 * isLoopbackHost('127.0.0.1'); // true
 * isLoopbackHost('app.localhost'); // true
 * isLoopbackHost('0.0.0.0'); // false
 */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return (
    name === 'localhost' ||
    name.endsWith('.localhost') ||
    name === '::1' ||
    name === '[::1]' ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name)
  );
}

/**
 * The host name of a `Host` header or of an absolute request target, as the WHATWG URL parser
 * normalises it (lower case, IPv4 in dotted decimal, IPv6 in brackets), without the port;
 * undefined when it does not parse.
 *
 * @example
 * hostnameOf('LOCALHOST:4010'); // 'localhost'
 * hostnameOf('0x7f.1:4010'); // '127.0.0.1'
 */
export function hostnameOf(authority: string): string | undefined {
  // host[:port] and nothing else: no credentials, path or spaces for the parser to read around.
  if (!/^(?:\[[0-9A-Fa-f:.]+\]|[^\s@/\\?#[\]:]+)(?::\d*)?$/.test(authority)) return undefined;
  try {
    return new URL(`http://${authority}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * The names a server listening on `listenHost` answers: on a loopback address only loopback
 * names (a web page that rebinds its own name to 127.0.0.1 gets nothing) and the ones `allowed`
 * lists (an entry beginning with `.` allows that domain's subdomains); on any other address every
 * name, unless `allowed` lists them.
 *
 * @example
 * const allows = hostAllowance('127.0.0.1');
 * allows('localhost'); // true
 * allows('attacker.example'); // false
 */
export function hostAllowance(
  listenHost: string,
  allowed?: AllowedHosts,
): (hostname: string) => boolean {
  const policy = allowed ?? (isLoopbackHost(listenHost) ? [] : 'any');
  if (policy === 'any') return () => true;
  const names = policy.map((name) => name.toLowerCase());
  return (hostname) =>
    isLoopbackHost(hostname) ||
    names.some((name) =>
      name.startsWith('.')
        ? hostname.endsWith(name) || hostname === name.slice(1)
        : hostname === name,
    );
}

/**
 * Whether keys may point webhook endpoints at this machine's loopback: what `allowed` says, or
 * by default only when the sandbox listens on a loopback address (reachable from the network, it
 * would let anyone read the services of its machine through the delivery log).
 *
 * @example
 * loopbackWebhooksAllowed('127.0.0.1'); // true
 * loopbackWebhooksAllowed('0.0.0.0'); // false
 * loopbackWebhooksAllowed('0.0.0.0', true); // true
 */
export function loopbackWebhooksAllowed(listenHost: string, allowed?: boolean): boolean {
  return allowed ?? isLoopbackHost(listenHost);
}
