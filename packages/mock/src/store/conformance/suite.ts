// The mock's store conformance suite: the same tests against every store, each given a factory and a manifest of what the store supports.
import { afterAll, describe } from 'vitest';
import { badIdTests } from './bad-ids.js';
import type { SuiteCommon } from './common.js';
import { concurrencyTests } from './concurrency.js';
import { drawnIdTests } from './drawn-ids.js';
import { durabilityTests } from './durability.js';
import { expiryTests } from './expiry.js';
import { isolationTests } from './isolation.js';
import { limitTests } from './limits.js';
import { manifestTests } from './manifest-check.js';
import { sameAnswerTests } from './same-answers.js';
import { stepTests } from './steps.js';

/**
 * Registers the whole suite for one store. A new store passes it by giving a factory of
 * sandboxes on it and a manifest of where it differs.
 *
 * @example
 * // memory.test.ts
 * conformanceSuite({ factory: memoryStores(), manifest: MEMORY_MANIFEST });
 */
export function conformanceSuite(common: SuiteCommon): void {
  describe(`store conformance: ${common.manifest.store}`, () => {
    afterAll(() => common.factory.dispose());
    manifestTests(common);
    stepTests(common);
    limitTests(common);
    expiryTests(common);
    isolationTests(common);
    concurrencyTests(common);
    badIdTests(common);
    durabilityTests(common);
    drawnIdTests(common);
    sameAnswerTests(common);
  });
}
