// A TypeScript project over an npm install of the packed tarballs: its script run by tsx (its strict type-checks are strict-types.test.ts's).
import { describeMerchantProject } from './install-suite.js';

describeMerchantProject({
  name: 'TypeScript (npm init -y, run by tsx)',
  type: 'commonjs',
  flavour: 'typescript',
});
