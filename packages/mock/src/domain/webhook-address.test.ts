import { describe, expect, it } from 'vitest';
import {
  isLoopbackAddress,
  PUBLIC_AND_LOOPBACK,
  PUBLIC_ONLY,
  parseAddress,
  refusedAddress,
} from './webhook-address.js';

const open = { allowPrivate: true };

describe('refusedAddress', () => {
  it.each([
    '93.184.215.14',
    '2606:2800:21f:cb07:6820:80da:af6b:8b2c',
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
  ])('lets %s through', (address) => {
    expect(refusedAddress(address, PUBLIC_AND_LOOPBACK)).toBeUndefined();
  });

  it.each([
    ['10.0.0.1', /private/],
    ['172.16.5.4', /private/],
    ['192.168.1.1', /private/],
    ['::ffff:10.0.0.1', /private/],
    ['fd12:3456::1', /unique-local/],
    ['100.64.0.1', /carrier-grade/],
    ['169.254.169.254', /link-local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['224.0.0.1', /multicast/],
    ['ff02::1', /multicast/],
    ['0.0.0.0', /unspecified/],
    ['::', /unspecified/],
    ['255.255.255.255', /broadcast/],
    ['192.0.2.1', /reserved/],
    ['2002:a00:1::', /reserved address \(6to4\)/],
    ['fd00:ec2::254', /metadata/],
    ['100.100.100.200', /metadata/],
    ['not-an-ip', /not an IP/],
  ])('refuses %s by default', (address, words) => {
    expect(refusedAddress(address, PUBLIC_AND_LOOPBACK)).toMatch(words);
  });

  it.each([
    ['::a9fe:a9fe', /link-local/],
    ['[::169.254.169.254]', /link-local/],
    ['::10.0.0.1', /private/],
    ['::c0a8:101', /private/],
    ['::0.0.0.2', /unspecified/],
  ])(
    'judges the IPv4-compatible IPv6 address %s by the IPv4 address it embeds',
    (address, words) => {
      expect(refusedAddress(address, PUBLIC_AND_LOOPBACK)).toMatch(words);
    },
  );

  it('refuses loopback, in every notation, under a policy without it', () => {
    for (const address of [
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
      '::7f00:1',
    ])
      expect(refusedAddress(address, PUBLIC_ONLY), address).toMatch(/loopback/);
    expect(refusedAddress('93.184.215.14', PUBLIC_ONLY)).toBeUndefined();
  });

  it('lets private networks through only when allowed, and never link-local or metadata', () => {
    for (const address of ['10.0.0.1', '192.168.1.1', 'fd12:3456::1', '100.64.0.1'])
      expect(refusedAddress(address, open), address).toBeUndefined();
    for (const address of ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200', '0.0.0.0'])
      expect(refusedAddress(address, open), address).toBeDefined();
  });
});

describe('isLoopbackAddress', () => {
  it('knows loopback in both families and inside IPv6', () => {
    expect(['127.0.0.1', '::1', '::ffff:127.0.0.1', '::7f00:1'].every(isLoopbackAddress)).toBe(
      true,
    );
    expect(['10.0.0.1', '0.0.0.0', 'localhost'].some(isLoopbackAddress)).toBe(false);
  });
});

describe('parseAddress', () => {
  it('reads IPv4 inside IPv6 as IPv4, and keeps :: and ::1 as IPv6', () => {
    expect(parseAddress('[::a9fe:a9fe]')?.toString()).toBe('169.254.169.254');
    expect(parseAddress('::ffff:10.0.0.1')?.toString()).toBe('10.0.0.1');
    expect(parseAddress('::')?.range()).toBe('unspecified');
    expect(parseAddress('::1')?.range()).toBe('loopback');
    expect(parseAddress('example.com')).toBeUndefined();
  });
});
