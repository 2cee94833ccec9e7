// Installs the packed tarballs with npm into a fresh TypeScript project, runs its script with tsx and type-checks it under each resolution.
import { describeFreshProject } from './install-suite.js';

describeFreshProject({
  name: 'TypeScript (npm init -y, run by tsx)',
  type: 'commonjs',
  flavour: 'typescript',
  resolutions: ['node16', 'nodenext', 'bundler'],
});
