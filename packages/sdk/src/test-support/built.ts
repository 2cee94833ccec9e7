// Test support: the built SDK (dist/) bundled with esbuild, for the size, browser and other-runtime tests.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The built entry point, dist/index.js. */
export const distEntry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** Whether this run must not skip a test for a missing tool (CI sets CI=true). */
export const inCi = process.env.CI === 'true' || process.env.CI === '1';

/**
 * Fails with a clear message when dist/ has not been built (turbo builds it before `test`).
 *
 * @example
 * requireBuiltSdk();
 */
export function requireBuiltSdk(): string {
  if (!existsSync(distEntry)) {
    throw new Error(
      `${distEntry} is missing: build the SDK first (npx turbo run build --filter=@payment-service/sdk)`,
    );
  }
  return distEntry;
}

/**
 * Bundles `source` (an ES module importing the built SDK as `@payment-service/sdk`) into one
 * minified ES module, openapi-fetch included, as a browser would load it.
 *
 * @example
 * const code = await bundleWithSdk("export { createClient } from '@payment-service/sdk';");
 */
export async function bundleWithSdk(source: string, minify = true): Promise<string> {
  const entry = requireBuiltSdk();
  const result = await build({
    stdin: {
      contents: source,
      resolveDir: fileURLToPath(new URL('../../', import.meta.url)),
      loader: 'js',
    },
    bundle: true,
    minify,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    alias: { '@payment-service/sdk': entry },
  });
  return result.outputFiles[0]?.text ?? '';
}
