// The attack drivers and the CLI harness, for the attack suite and the bench's memory mode.
export * from './attacks/abuse.js';
export * from './attacks/floods.js';
export * from './attacks/sockets.js';
export * from './expect-helpers.js';
export * from './http.js';
export * from './memory.js';
export * from './receiver.js';
export * from './sandbox.js';
