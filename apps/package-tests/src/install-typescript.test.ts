// A TypeScript project over an npm install of the packed tarballs and msw: its script run by tsx, and type-checked under each resolution.
import { describeMerchantProject } from './install-suite.js';

describeMerchantProject({
  name: 'TypeScript (npm init -y, run by tsx)',
  type: 'commonjs',
  flavour: 'typescript',
  // node16, not nodenext: since TypeScript 5.8 nodenext lets CommonJS require() an ESM-only entry,
  // so it would pass a tarball whose CommonJS build went missing. The ESM project checks nodenext.
  resolutions: ['node16', 'bundler'],
});
