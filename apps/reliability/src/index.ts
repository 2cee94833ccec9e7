// The attack drivers, the CLI harness and the fleet's processes, for the attack suite and the bench.
export * from './attacks/abuse.js';
export * from './attacks/floods.js';
export * from './attacks/sockets.js';
export * from './expect-helpers.js';
export { type Balancer, startHaproxy } from './fleet/haproxy.js';
export { findProgram } from './fleet/processes.js';
export { type RedisServer, startRedisServer } from './fleet/redis-server.js';
export * from './http.js';
export * from './memory.js';
export * from './receiver.js';
export * from './sandbox.js';
