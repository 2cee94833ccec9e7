// The conformance suite on the memory store.
import { MEMORY_MANIFEST } from './manifest.js';
import { memoryStores } from './stores.js';
import { conformanceSuite } from './suite.js';

conformanceSuite({ factory: memoryStores(), manifest: MEMORY_MANIFEST });
