// The proxy's rows of BENCHMARKS.md: what ours and the bare forwarding floor add per exchange, and the issue's two targets.
import {
  PROXY_OVERHEAD_TARGETS,
  type ProxyKind,
  type ProxyOverheadResult,
} from './proxy-overhead.js';

/** A target row, as report.ts renders it. */
interface ProxyTarget {
  name: string;
  target: string;
  value: string;
  met: boolean | null;
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const refused = (result: ProxyOverheadResult) => result.non2xx.direct + result.non2xx.proxied;

/** The worst added quantile of one proxy over its endpoints; undefined when any answer was refused or none ran. */
function worst(
  results: readonly ProxyOverheadResult[],
  kind: ProxyKind,
  quantile: 'p50' | 'p99',
): number | undefined {
  const rows = results.filter((result) => result.proxy === kind);
  if (rows.length === 0 || rows.some((result) => refused(result) > 0)) return undefined;
  return Math.max(...rows.map((result) => result.added[quantile]));
}

/**
 * The targets "≤ 1 ms at p50" and "≤ 3 ms at p99" for the contract proxy on its worst endpoint,
 * the forwarding floor's figure beside it; not measured when no run happened or an answer was not
 * 2xx (a refusal is never measured as speed).
 *
 * @example
 * proxyOverheadTargets([])[0]?.met; // null
 */
export function proxyOverheadTargets(results: readonly ProxyOverheadResult[]): ProxyTarget[] {
  return (['p50', 'p99'] as const).map((quantile) => {
    const ours = worst(results, 'contract-proxy', quantile);
    const floor = worst(results, 'forward-floor', quantile);
    const limit = PROXY_OVERHEAD_TARGETS[quantile];
    const measured = results.some((result) => result.proxy === 'contract-proxy');
    return {
      name: `contract proxy: time added per exchange at ${quantile} (worst of create and retrieve)`,
      target: `≤ ${limit} ms`,
      value:
        ours === undefined
          ? measured
            ? 'n/a (non-2xx answers)'
            : 'n/a (not measured)'
          : `${ms(ours)}${floor === undefined ? '' : ` (bare forwarding floor: ${ms(floor)})`}`,
      met: ours === undefined ? null : ours <= limit,
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
    `Each proxy as its own process in front of our mock (CLI, \`--quiet\`): \`payment-service-contract proxy --target <mock>\`, and the forwarding floor (a bare node:http proxy that pipes both ways and checks nothing: what one more hop costs on this machine). The same request goes straight to the mock and through the proxy, one exchange at a time on a keep-alive connection each, alternating which goes first; ${results[0]?.requests.toLocaleString('en-US')} exchanges per endpoint after a warm-up. "Added" is the proxied quantile minus the direct one.`,
    '',
    '| proxy | endpoint | direct p50 | direct p99 | proxied p50 | proxied p99 | added p50 | added p99 | non-2xx |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map(
      (result) =>
        `| ${result.proxy} | ${result.endpoint} | ${ms(result.direct.p50)} | ${ms(result.direct.p99)} | ${ms(result.proxied.p50)} | ${ms(result.proxied.p99)} | ${ms(result.added.p50)} | ${ms(result.added.p99)} | ${refused(result)} |`,
    ),
  ];
}
