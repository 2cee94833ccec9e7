import { describe, expect, it } from 'vitest';
import {
  hostAllowance,
  hostnameOf,
  isLoopbackHost,
  loopbackWebhooksAllowed,
} from './allowed-hosts.js';

describe('isLoopbackHost', () => {
  it('tells local-only hosts from exposing ones', () => {
    const local = [
      '127.0.0.1',
      'localhost',
      'LOCALHOST.',
      'app.localhost',
      '::1',
      '[::1]',
      '127.1.2.3',
    ];
    expect(local.filter((host) => !isLoopbackHost(host))).toEqual([]);
    const exposed = [
      '0.0.0.0',
      '::',
      '192.168.1.5',
      'localhost.example',
      'evil-localhost',
      '1270.0.0.1',
    ];
    expect(exposed.filter(isLoopbackHost)).toEqual([]);
  });
});

describe('hostnameOf', () => {
  it('normalises as the URL parser does, without the port', () => {
    expect(hostnameOf('LocalHost:4010')).toBe('localhost');
    expect(hostnameOf('0x7f.1')).toBe('127.0.0.1');
    expect(hostnameOf('[0:0:0:0:0:0:0:1]:80')).toBe('[::1]');
    expect(hostnameOf('a b')).toBeUndefined();
    expect(hostnameOf('a b@c')).toBeUndefined();
    expect(hostnameOf('user@localhost')).toBeUndefined();
  });
});

describe('hostAllowance', () => {
  it('answers only loopback names on a loopback address by default', () => {
    const allows = hostAllowance('127.0.0.1');
    expect(['localhost', '127.0.0.1', '[::1]', 'api.localhost'].every(allows)).toBe(true);
    expect(['attacker.example', '192.168.1.5', 'localhost.attacker.example'].some(allows)).toBe(
      false,
    );
  });

  it('answers every name on another address unless names are listed', () => {
    expect(hostAllowance('0.0.0.0')('sandbox.internal')).toBe(true);
    const listed = hostAllowance('0.0.0.0', ['sandbox.internal']);
    expect(listed('sandbox.internal')).toBe(true);
    expect(listed('other.internal')).toBe(false);
  });

  it('widens a loopback server with names, subdomain entries or any', () => {
    const allows = hostAllowance('127.0.0.1', ['Sandbox.Test', '.ci.internal']);
    expect(['sandbox.test', 'ci.internal', 'runner-7.ci.internal', 'localhost'].every(allows)).toBe(
      true,
    );
    expect(allows('notci.internal')).toBe(false);
    expect(hostAllowance('127.0.0.1', 'any')('anything.example')).toBe(true);
  });
});

describe('loopbackWebhooksAllowed', () => {
  it("refuses keys this machine's loopback when the sandbox listens on a network address", () => {
    expect(['127.0.0.1', 'localhost', '::1'].every((host) => loopbackWebhooksAllowed(host))).toBe(
      true,
    );
    expect(['0.0.0.0', '::', '192.168.1.5'].some((host) => loopbackWebhooksAllowed(host))).toBe(
      false,
    );
    expect(loopbackWebhooksAllowed('0.0.0.0', true)).toBe(true);
    expect(loopbackWebhooksAllowed('127.0.0.1', false)).toBe(false);
  });
});
