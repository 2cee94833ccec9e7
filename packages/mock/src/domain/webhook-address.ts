// Which IP addresses the sandbox's webhooks may reach: public ones and this machine's loopback, not the networks around it.
import ipaddr from 'ipaddr.js';

/** What a key's webhook endpoints may reach besides public addresses and loopback. */
export interface WebhookAddressPolicy {
  /**
   * Private networks too (RFC 1918, IPv6 unique-local, carrier-grade NAT): for a receiver in a
   * CI service network or a container next to the sandbox. Link-local, multicast, unspecified,
   * reserved and cloud-metadata addresses stay refused.
   */
  allowPrivate: boolean;
  /**
   * This machine's loopback too (127.0.0.0/8, ::1, `localhost`): true unless said otherwise. A
   * sandbox that listens on a non-loopback address sets it to false, so that nobody who reaches
   * it over the network can make it call the services that listen on its loopback.
   */
  allowLoopback?: boolean;
}

/** The default: public addresses and loopback only. */
export const PUBLIC_AND_LOOPBACK: WebhookAddressPolicy = { allowPrivate: false };

/** Public addresses only: the policy of a sandbox reachable from other machines. */
export const PUBLIC_ONLY: WebhookAddressPolicy = { allowPrivate: false, allowLoopback: false };

/** Why loopback is refused under a policy without `allowLoopback`, in words. */
export const LOOPBACK_REFUSED =
  "this machine's loopback (the sandbox listens on a network address, so its keys may not reach the services of the machine it runs on)";

/** Cloud metadata services that sit in ranges a policy may otherwise allow (AWS IPv6, Alibaba). */
const METADATA_ADDRESSES = new Set(
  ['fd00:ec2::254', '100.100.100.200'].map((address) => ipaddr.parse(address).toNormalizedString()),
);

/** How each refused range is named in an error, and whether `allowPrivate` lets it through. */
const RANGES: Record<string, { words: string; private?: true }> = {
  private: { words: 'a private network address', private: true },
  uniqueLocal: { words: 'a private (unique-local) network address', private: true },
  carrierGradeNat: { words: 'a carrier-grade NAT address', private: true },
  linkLocal: { words: 'a link-local address (cloud metadata services live there)' },
  multicast: { words: 'a multicast address' },
  unspecified: { words: 'the unspecified address (it reaches this machine)' },
  broadcast: { words: 'the broadcast address' },
};

/**
 * Why a webhook may not be sent to an IP address under a policy, in words, or undefined when it
 * may: public unicast and loopback addresses may (loopback unless the policy says otherwise); an
 * IPv4 address inside IPv6 (mapped or compatible) is judged as IPv4.
 *
 * @example
 * refusedAddress('127.0.0.1', PUBLIC_AND_LOOPBACK); // undefined
 * refusedAddress('169.254.169.254', PUBLIC_AND_LOOPBACK); // 'a link-local address (cloud metadata services live there)'
 * refusedAddress('10.0.0.1', { allowPrivate: true }); // undefined
 */
export function refusedAddress(address: string, policy: WebhookAddressPolicy): string | undefined {
  const parsed = parseAddress(address);
  if (parsed === undefined) return 'not an IP address';
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()))
    return 'a cloud metadata service address';
  const range = parsed.range();
  if (range === 'loopback') return policy.allowLoopback === false ? LOOPBACK_REFUSED : undefined;
  if (range === 'unicast') return undefined;
  const known = RANGES[range];
  if (known === undefined) return `a reserved address (${range})`;
  if (known.private === true && policy.allowPrivate) return undefined;
  return known.words;
}

/**
 * Whether an IP address is this machine's loopback (127.0.0.0/8, ::1, or IPv4 loopback inside
 * IPv6): a receiver's answer is kept in the delivery log only then.
 *
 * @example
 * isLoopbackAddress('::ffff:127.0.0.1'); // true
 */
export function isLoopbackAddress(address: string): boolean {
  return parseAddress(address)?.range() === 'loopback';
}

/**
 * Parses an IP address (brackets and a zone index allowed) as the range checks read it: an IPv4
 * address inside IPv6, IPv4-mapped (`::ffff:a.b.c.d`) or IPv4-compatible (`::a.b.c.d`, RFC 4291's
 * deprecated form, which some stacks still route as IPv4), is the IPv4 address; undefined when
 * it is no IP address.
 *
 * @example
 * parseAddress('[::a9fe:a9fe]')?.toString(); // '169.254.169.254'
 */
export function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return undefined;
  }
  if (parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    // ::/96 holds IPv4-compatible addresses; `::` and `::1` are IPv6's own unspecified and loopback.
    const high = parts[6] ?? 0;
    const low = parts[7] ?? 0;
    if (parts.slice(0, 6).every((part) => part === 0) && (high !== 0 || low > 1)) {
      return new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
    }
  }
  return parsed;
}
