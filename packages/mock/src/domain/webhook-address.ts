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
}

/** The default: public addresses and loopback only. */
export const PUBLIC_AND_LOOPBACK: WebhookAddressPolicy = { allowPrivate: false };

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
 * may: public unicast and loopback addresses may; an IPv4 address inside IPv6 is judged as IPv4.
 *
 * @example
 * refusedAddress('127.0.0.1', PUBLIC_AND_LOOPBACK); // undefined
 * refusedAddress('169.254.169.254', PUBLIC_AND_LOOPBACK); // 'a link-local address (cloud metadata services live there)'
 * refusedAddress('10.0.0.1', { allowPrivate: true }); // undefined
 */
export function refusedAddress(address: string, policy: WebhookAddressPolicy): string | undefined {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.process(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return 'not an IP address';
  }
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()))
    return 'a cloud metadata service address';
  const range = parsed.range();
  if (range === 'unicast' || range === 'loopback') return undefined;
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
  try {
    return ipaddr.process(address.replace(/^\[|\]$/g, '')).range() === 'loopback';
  } catch {
    return false;
  }
}
