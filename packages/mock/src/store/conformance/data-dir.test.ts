// The conformance suite on the data directory store.
import { DATA_DIR_MANIFEST } from './manifest.js';
import { dataDirStores } from './stores.js';
import { conformanceSuite } from './suite.js';

conformanceSuite({ factory: dataDirStores(), manifest: DATA_DIR_MANIFEST });
