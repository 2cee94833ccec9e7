// A CommonJS project over an npm install of the packed tarballs (without msw), using them as a merchant would (require).
import { describeMerchantProject } from './install-suite.js';

describeMerchantProject({
  name: 'CommonJS (npm init -y, require)',
  type: 'commonjs',
  flavour: 'commonjs',
});
