// An ESM project ("type": "module") over an npm install of the packed tarballs and msw, using them as a merchant would (import).
import { describeMerchantProject } from './install-suite.js';

describeMerchantProject({
  name: 'ESM ("type": "module", import)',
  type: 'module',
  flavour: 'esm',
  resolutions: ['nodenext'],
});
