// Installs the packed tarballs with npm into a fresh CommonJS project and uses them as a merchant would (require).
import { describeFreshProject } from './install-suite.js';

describeFreshProject({
  name: 'CommonJS (npm init -y, require)',
  type: 'commonjs',
  flavour: 'commonjs',
  resolutions: [],
});
