// A spy on the platform's Response#clone, wherever a test runs: @hono/node-server replaces the global Response with a lightweight one whose methods cannot be redefined but call the platform's.
import { vi } from 'vitest';

/**
 * Spies on the platform's `Response.prototype.clone` (the first prototype up the chain whose
 * `clone` can be redefined), so a copy of a Response is seen whether or not a node server has
 * replaced the global Response in this process.
 *
 * @example
 * const clone = spyOnResponseClone();
 * await call('GET', '/v1/payments');
 * expect(clone).not.toHaveBeenCalled();
 * clone.mockRestore();
 */
export function spyOnResponseClone() {
  let prototype: object | null = Response.prototype;
  while (prototype !== null) {
    if (Object.getOwnPropertyDescriptor(prototype, 'clone')?.configurable)
      return vi.spyOn(prototype as Response, 'clone');
    prototype = Object.getPrototypeOf(prototype);
  }
  throw new Error('no redefinable Response#clone on the prototype chain');
}
