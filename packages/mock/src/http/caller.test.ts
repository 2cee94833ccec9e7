import { describe, expect, it } from 'vitest';
import { callerOnThisMachine } from './caller.js';

const connectedFrom = (remoteAddress: string | undefined) => ({
  incoming: { socket: { remoteAddress } },
});

describe('callerOnThisMachine', () => {
  it('knows in-process and loopback callers', () => {
    expect(callerOnThisMachine(undefined)).toBe(true);
    expect(callerOnThisMachine({ inProcess: true })).toBe(true);
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
      expect(callerOnThisMachine(connectedFrom(address)), address).toBe(true);
  });

  it('counts every other caller as remote, an unknown one included', () => {
    for (const address of ['192.0.2.7', '10.0.0.1', '::ffff:10.0.0.1', undefined])
      expect(callerOnThisMachine(connectedFrom(address)), String(address)).toBe(false);
    expect(callerOnThisMachine({ SOME_WORKER_BINDING: 'x' })).toBe(false);
  });
});
