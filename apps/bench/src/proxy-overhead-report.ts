// The proxy's rows of BENCHMARKS.md: what it adds per exchange, and the two targets.
import { PROXY_OVERHEAD_TARGETS, type ProxyOverheadResult } from './proxy-overhead.js';

/** A target row, as report.ts renders it. */
interface ProxyTarget {
  name: string;
  target: string;
  value: string;
  met: boolean | null;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const refused = (result: ProxyOverheadResult) => result.non2xx.direct + result.non2xx.proxied;

/**
 * The targets "≤ 1 ms at p50" and "≤ 3 ms at p99" on the worst endpoint; not measured when no
 * run happened or an answer was not 2xx (a refusal is never measured as speed).
 *
 * @example
 * proxyOverheadTargets([])[0]?.met; // null
 */
export function proxyOverheadTargets(results: readonly ProxyOverheadResult[]): ProxyTarget[] {
  const valid = results.length > 0 && results.every((result) => refused(result) === 0);
  return (['p50', 'p99'] as const).map((quantile) => {
    const worst = Math.max(...results.map((result) => result.added[quantile]));
    const limit = PROXY_OVERHEAD_TARGETS[quantile];
    return {
      name: `contract proxy: time added per exchange at ${quantile} (worst of create and retrieve)`,
      target: `≤ ${limit} ms`,
      value: !valid
        ? results.length === 0
          ? 'n/a (not measured)'
          : 'n/a (non-2xx answers)'
        : ms(worst),
      met: valid ? worst <= limit : null,
    };
  });
}

/**
 * The "Contract proxy overhead" section.
 *
 * @example
 * renderProxyOverhead(results).join('\n'); // '## Contract proxy overhead …'
 */
export function renderProxyOverhead(results: readonly ProxyOverheadResult[]): string[] {
  if (results.length === 0) return [];
  return [
    '',
    '## Contract proxy overhead',
    '',
    `\`payment-service-contract proxy --target <mock>\` as its own process in front of our mock (CLI, \`--quiet\`). The same request goes straight to the mock and through the proxy, one exchange at a time on a keep-alive connection each, alternating which goes first; ${results[0]?.requests.toLocaleString('en-US')} exchanges per endpoint after a warm-up. "Added" is the proxied quantile minus the direct one.`,
    '',
    '| endpoint | direct p50 | direct p99 | proxied p50 | proxied p99 | added p50 | added p99 | non-2xx |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (result) =>
        `| ${result.endpoint} | ${ms(result.direct.p50)} | ${ms(result.direct.p99)} | ${ms(result.proxied.p50)} | ${ms(result.proxied.p99)} | ${ms(result.added.p50)} | ${ms(result.added.p99)} | ${refused(result)} |`,
    ),
  ];
}
