// The CLI's help text: the commands, every option with its default, the environment and the exit codes.
import { gateHelp } from '../gate/arguments.js';
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PROXY_PORT,
  DEFAULT_RECORD_ENTRIES,
} from '../proxy/args.js';
import { DEFAULT_UPSTREAM_TIMEOUT_MS } from '../proxy/forward.js';
import { FAIL_ON_VALUES } from '../report.js';
import { REPORT_FORMATS } from '../reports/index.js';
import { DEFAULTS } from '../runner/run.js';

/** The gate's help for proxy and replay: check's flags but --seed, and how request checks are selected. */
function trafficGateHelp(): string {
  const lines = gateHelp().split('\n');
  const seed = lines.findIndex((line) => line.startsWith('  --seed'));
  const kept = seed < 0 ? lines : [...lines.slice(0, seed), ...lines.slice(seed + 2)];
  return `${kept.join('\n')}  Request checks (request.*, cause: your request) count under the operation the request
  addressed and the provenance of their element; --check 'request.*' or --exclude 'request.*'
  picks one side. --report sarif:FILE marks each result's cause.
`;
}

/**
 * The help text, for one command or all.
 *
 * @example
 * process.stdout.write(helpText('check'));
 */
export function helpText(topic?: string): string {
  const check = `payment-service-contract check --base-url URL --key sk_test_… [options]
  Runs every contract check against a target (a provider's sandbox, or the mock) and reports each
  failure as documented (the provider's document states it) or inferred (our model of a part it
  leaves "not shown").

  --base-url URL         the target, http(s) without credentials (or PAYMENT_SERVICE_BASE_URL);
                         requests go to its origin only: a redirect is a failed check, never followed
  --key KEY              an sk_test_ key (or PAYMENT_SERVICE_API_KEY); sk_live_ keys are refused
  --format FORMAT        ${REPORT_FORMATS.join(', ')} (default text); repeat for several reports
  --output FILE          the file of the --format just before it (--format junit:FILE works too);
                         at most one report goes to stdout
  --fail-on POLICY       ${FAIL_ON_VALUES.join(', ')} (default ${DEFAULTS.failOn}): which failures exit 1
  --max-requests N       requests in the whole run, at most (default ${DEFAULTS.maxRequests})
  --rate N               requests per second, at most (default ${DEFAULTS.rate})
  --timeout SECONDS      per request (default ${DEFAULTS.timeoutMs / 1000}); ${DEFAULTS.maxConsecutiveTimeouts} time-outs in a row stop the run (exit 3)
  --deadline MINUTES     the whole run, at most (default ${DEFAULTS.deadlineMs / 60_000}); then it stops with the report of what ran (exit 3)
  --webhook-url URL      where the target delivers webhooks; the run starts a receiver for it
                         (http://127.0.0.1:0/hooks: a free local port, for a local target)
  --webhook-listen [HOST:]PORT  where that receiver listens when --webhook-url is a public URL
  --webhook-timeout SECONDS     how long to wait for a delivery (default ${DEFAULTS.webhookTimeoutMs / 1000})
  --scenario ID          run only this scenario (repeatable); \`list\` shows the checks
  --no-progress          no progress line on a terminal
${gateHelp()}`;
  const compare = `payment-service-contract compare --base-url LIVE_URL --key sk_test_… --against MOCK_URL --against-key sk_test_… [options]
  Runs the same scenarios against both targets and lists where the second (the mock) behaves
  differently from the first (the provider): status, code, headers, response shape and values,
  the state later retrieves show, and the events with their order; each difference with its
  provenance and what to change (the spec, the mock, the provider, or nothing).

  --against URL          the second target
  --against-key KEY      its own sk_test_ key (or PAYMENT_SERVICE_AGAINST_API_KEY); required:
                         --key is never sent to --against
  --against-webhook-url URL  its webhook receiver
  --format text|markdown|json, --output FILE, and the options of check
`;
  const list = `payment-service-contract list [--format json] [--operation ID] [--check GLOB] [--provenance KIND] [--exclude GLOB]
  Lists every scenario check with the spec element it enforces and that element's provenance;
  with a selection (as check takes it, or from the config file), only the checks check would run.
`;
  const proxy = `payment-service-contract proxy --target URL [--port P] [--host H] [--report FORMAT[:FILE]]… [--record FILE] [--fail-on POLICY]
  Forwards your app's requests to the target (its origin only; no redirect followed; sk_live_ keys
  refused with a 403, never forwarded) and checks every exchange against the spec: your request
  (cause: your request) and the target's answer (documented or inferred drift). Give your app
  http://HOST:PORT as its base URL.

  --target URL           the sandbox or mock to forward to (or PAYMENT_SERVICE_BASE_URL)
  --port P               where the proxy listens (default ${DEFAULT_PROXY_PORT}; 0: a free port, printed)
  --host H               default 127.0.0.1
  --report FORMAT[:FILE] ${REPORT_FORMATS.join(', ')}; repeatable; written at SIGINT or SIGTERM, and
                         on demand at SIGUSR2 (kill -USR2 PID) without stopping
  --record FILE          record the exchanges as HAR 1.2 (keys, whsec_ secrets, signatures and
                         cookies masked; at most --record-max-entries, default ${DEFAULT_RECORD_ENTRIES})
  --max-body BYTES       bodies over this are forwarded but not checked (default ${DEFAULT_MAX_BODY_BYTES})
  --upstream-timeout MS  how long one exchange may take (a wait for a connection to the target
                         included) before a 504 problem, or a cut answer (default ${DEFAULT_UPSTREAM_TIMEOUT_MS})
  --parent-watch auto|on|off  stop (reports written) once the process that started the proxy
                         ends; auto (default): only when started by npx or npm exec, which pass
                         no SIGTERM on; a proxy started by a shell or CI step that exits keeps running
  --fail-on POLICY       ${FAIL_ON_VALUES.join(', ')} (default ${DEFAULTS.failOn}): which failures exit 1
${trafficGateHelp()}`;
  const replay = `payment-service-contract replay FILE.har [--spec PATH] [--report FORMAT[:FILE]]… [--fail-on POLICY]
  Re-checks a recording (HAR, from proxy --record or a browser) against the spec, offline; with
  --spec, against another spec file (YAML or JSON), to see what a spec change breaks in real traffic.
  A recording it cannot read is exit 2, naming the field. Takes --report, --fail-on and the gate
  (--operation, --check, --provenance, --exclude, --baseline, --update-baseline, --config) as proxy does.
`;
  const all = `payment-service-contract: contract drift checks for the payment service's HTTP API

${check}
${compare}
${list}
${proxy}
${replay}
Exit codes: 0 passed; 1 contract failures under --fail-on; 2 usage or configuration error
(nothing sent, or the request budget ran out); 3 the target could not be reached, refused the key,
or the run reached --deadline or ${DEFAULTS.maxConsecutiveTimeouts} time-outs in a row (a CI may retry this); 4 no verdict: an
internal error (a bug here, or an answer no check foresaw). Every exit but 2 before sending writes
the reports.
`;
  if (topic === 'check') return check;
  if (topic === 'compare') return compare;
  if (topic === 'list') return list;
  if (topic === 'proxy') return proxy;
  if (topic === 'replay') return replay;
  return all;
}
