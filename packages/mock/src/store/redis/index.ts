// The Valkey/Redis store's public face, for the server to import only when a --redis-url is given (ioredis loads with it).
export { createRedisClient, type RedisClientOptions } from './client.js';
export { StoreFormatError, StoreUnavailableError, storeError } from './errors.js';
export { accountHash, DEFAULT_PREFIX, STORE_FORMAT } from './keys.js';
export { type OpenRedisStoreOptions, openRedisStore } from './open.js';
export { RedisAccount } from './redis-account.js';
export { DEFAULT_LEASE_MS, RedisStore, type RedisStoreOptions } from './redis-store.js';
export { describeRedisUrl, parseRedisUrl, type RedisTarget, RedisUrlError } from './url.js';
