// Release hook (`release:version`, run by `npm run version` after `changeset version`): the spec being released becomes the baseline of spec:breaking.
import { copyFile, mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { repositoryRoot } from './paths.mjs';

const released = resolve(repositoryRoot, 'spec/released/openapi.yaml');
await mkdir(resolve(released, '..'), { recursive: true });
await copyFile(resolve(repositoryRoot, 'spec/openapi.yaml'), released);
console.log('spec/released/openapi.yaml now holds the spec of this release');
