// An ESM project ("type": "module") over an npm install of the packed tarballs, using them as a merchant would (import).
import { describeMerchantProject } from './install-suite.js';

describeMerchantProject({
  name: 'ESM ("type": "module", import)',
  type: 'module',
  flavour: 'esm',
});
