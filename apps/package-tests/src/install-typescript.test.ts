// Installs the packed tarballs with npm into a fresh TypeScript project, runs its script with tsx and type-checks it under each resolution.
import { describeFreshProject } from './install-suite.js';

describeFreshProject({
  name: 'TypeScript (npm init -y, run by tsx)',
  type: 'commonjs',
  flavour: 'typescript',
  // node16, not nodenext: since TypeScript 5.8 nodenext lets CommonJS require() an ESM-only entry,
  // so it would pass a tarball whose CommonJS build went missing. The ESM project checks nodenext.
  resolutions: ['node16', 'bundler'],
});
