// Marks a package's CommonJS build (dist/cjs) as CommonJS, so Node and TypeScript read its .js and .d.ts as such.
import { mkdirSync, writeFileSync } from 'node:fs';

mkdirSync('dist/cjs', { recursive: true });
writeFileSync('dist/cjs/package.json', '{ "type": "commonjs" }\n');
