// Installs the packed tarballs with npm into a fresh ESM project and uses them as a merchant would (import).
import { describeFreshProject } from './install-suite.js';

describeFreshProject({
  name: 'ESM ("type": "module", import)',
  type: 'module',
  flavour: 'esm',
  resolutions: ['nodenext'],
});
