// Runs before a package is packed or published: refuses a manifest that still carries a `workspace:`
// range (npm pack/publish do not rewrite them; pnpm does), and copies the root LICENSE into the package.
import { copyFileSync, readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the pack lifecycle, never inside a turbo task.
const packer = process.env.npm_config_user_agent ?? '';
const workspaceRanges = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap(
  (field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, range]) => String(range).startsWith('workspace:'))
      .map(([name, range]) => `${field}.${name}: ${range}`),
);
if (workspaceRanges.length > 0 && !packer.startsWith('pnpm/')) {
  process.stderr.write(
    `${manifest.name}: refusing to pack with ${packer.split(' ')[0] || 'this tool'}: ` +
      `${workspaceRanges.join(', ')} would ship unresolved. Use \`pnpm pack\` or \`pnpm publish\`, ` +
      'which replace workspace: ranges with the real versions.\n',
  );
  process.exit(1);
}
copyFileSync(new URL('../LICENSE', import.meta.url), 'LICENSE');
