// The conformance suite on Valkey/Redis, against a throwaway redis-server.
import { REDIS_MANIFEST } from './manifest.js';
import { redisStores } from './stores.js';
import { conformanceSuite } from './suite.js';

conformanceSuite({ factory: redisStores(), manifest: REDIS_MANIFEST });
