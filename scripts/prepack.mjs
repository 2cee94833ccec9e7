// Runs before a package is packed or published: refuses a manifest that still carries a `workspace:`
// range (npm pack/publish do not rewrite them; pnpm does), and copies the root LICENSE into the package.
import { copyFileSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
// The tool running this script: npm_execpath is set by whichever of npm or pnpm runs the lifecycle
// (npm_config_user_agent alone can be inherited from an outer pnpm script).
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the pack lifecycle, never inside a turbo task.
const execPath = process.env.npm_execpath ?? '';
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by the pack lifecycle, never inside a turbo task.
const userAgent = process.env.npm_config_user_agent ?? '';
const byPnpm = execPath === '' ? userAgent.startsWith('pnpm/') : /pnpm/i.test(basename(execPath));
const packer = byPnpm ? 'pnpm' : /npm/i.test(basename(execPath)) ? 'npm' : 'this tool';
const workspaceRanges = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap(
  (field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, range]) => String(range).startsWith('workspace:'))
      .map(([name, range]) => `${field}.${name}: ${range}`),
);
if (workspaceRanges.length > 0 && !byPnpm) {
  process.stderr.write(
    `${manifest.name}: refusing to pack with ${packer}: ` +
      `${workspaceRanges.join(', ')} would ship unresolved. Use \`pnpm pack\` or \`pnpm publish\`, ` +
      'which replace workspace: ranges with the real versions.\n',
  );
  process.exit(1);
}
copyFileSync(new URL('../LICENSE', import.meta.url), 'LICENSE');
