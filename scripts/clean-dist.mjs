// Empties a package's dist/ before its build, so a file an earlier build wrote (on another branch, or
// before a module moved) can never ship in a tarball or shadow a current module.
import { rmSync } from 'node:fs';

rmSync('dist', { recursive: true, force: true });
