// Sandbox test tokens: the documented table and how each token's payment is processed.
import { testTokens } from '@payment-service/openapi';

/** How a declined payment fails: the payment's `failure_code` and `failure_message`. */
export interface PaymentFailure {
  failure_code: string;
  failure_message: string;
}

/**
 * What a test token does. `outcome` is the processed result: `'success'` (SUCCEEDED, or
 * AUTHORIZED when `capture` is false) or a failure. With `pending: true` the payment is created
 * PENDING and settles to `outcome` after the settlement delay.
 */
export interface TokenBehaviour {
  /** The outcome in words, as shown in the token table. */
  description: string;
  outcome: 'success' | PaymentFailure;
  pending?: boolean;
}

/** Every sandbox test token can start with this prefix; nothing else is accepted. */
export const TEST_TOKEN_PREFIX = 'tok_test_';

type SpecTestToken = (typeof testTokens)[number];

/** The behaviour of one row of the spec's test-token table (`x-test-tokens`). */
function behaviourOf(entry: SpecTestToken): TokenBehaviour {
  const outcome: TokenBehaviour['outcome'] =
    'failure_code' in entry
      ? { failure_code: entry.failure_code, failure_message: entry.failure_message }
      : 'success';
  return {
    // The spec's Markdown, as plain text for banners and error details.
    description: entry.description.replaceAll('`', ''),
    outcome,
    ...('pending' in entry && entry.pending ? { pending: true } : {}),
  };
}

/** The built-in test tokens and their behaviour, from the spec's `x-test-tokens` table. */
export const TEST_TOKEN_BEHAVIOURS = Object.fromEntries(
  testTokens.map((entry) => [entry.token, behaviourOf(entry)]),
) as Record<SpecTestToken['token'], TokenBehaviour>;

/** The name of a built-in test token. */
export type TestToken = SpecTestToken['token'];

/**
 * The documented test-token table: token → outcome description. The CLI banner, the
 * unknown-token error and the README show it.
 *
 * @example
 * TEST_TOKENS.tok_test_declined; // 'FAILED, failure_code card_declined'
 */
export const TEST_TOKENS: Readonly<Record<TestToken, string>> = Object.freeze(
  Object.fromEntries(
    Object.entries(TEST_TOKEN_BEHAVIOURS).map(([token, behaviour]) => [
      token,
      behaviour.description,
    ]),
  ) as Record<TestToken, string>,
);

/** Looks up tokens: the built-in ones plus any merchant-configured extra tokens. */
export interface TokenTable {
  behaviourOf(token: string): TokenBehaviour | undefined;
  /** Every token and its description, for error details and banners. */
  describe(): string;
}

/**
 * Builds the token table. Extra tokens must begin with `tok_test_`; they may override built-ins.
 *
 * @example
 * const table = createTokenTable({
 *   tok_test_fraud: { description: 'FAILED, fraud', outcome: { failure_code: 'fraudulent', failure_message: 'Suspected fraud.' } },
 * });
 * table.behaviourOf('tok_test_fraud')?.outcome; // { failure_code: 'fraudulent', … }
 */
export function createTokenTable(extraTokens: Record<string, TokenBehaviour> = {}): TokenTable {
  for (const token of Object.keys(extraTokens)) {
    if (!token.startsWith(TEST_TOKEN_PREFIX) || token.length === TEST_TOKEN_PREFIX.length) {
      throw new TypeError(`Extra test token "${token}" must begin with ${TEST_TOKEN_PREFIX}.`);
    }
  }
  const behaviours = new Map<string, TokenBehaviour>([
    ...Object.entries(TEST_TOKEN_BEHAVIOURS),
    ...Object.entries(extraTokens),
  ]);
  const description = [...behaviours]
    .map(([token, behaviour]) => `${token} (${behaviour.description})`)
    .join('; ');
  return {
    behaviourOf: (token) => behaviours.get(token),
    describe: () => description,
  };
}

/**
 * Formats the token table as aligned text lines, for the CLI banner.
 *
 * @example
 * formatTokenTable(); // '  tok_test_success             SUCCEEDED, or AUTHORIZED …\n…'
 */
export function formatTokenTable(tokens: Readonly<Record<string, string>> = TEST_TOKENS): string {
  const width = Math.max(...Object.keys(tokens).map((token) => token.length)) + 2;
  return Object.entries(tokens)
    .map(([token, description]) => `  ${token.padEnd(width)}${description}`)
    .join('\n');
}

/**
 * Checks `payment_method.token` against the token table: only known `tok_test_` tokens pass.
 * Returns the field error to report, or undefined when the token is known.
 *
 * @example
 * checkPaymentToken(createTokenTable(), 'tok_live_x')?.message;
 * // 'payment_method.token must be a sandbox test token beginning with tok_test_ …'
 */
export function checkPaymentToken(
  tokens: TokenTable,
  token: string,
): { param: string; code: string; message: string } | undefined {
  if (tokens.behaviourOf(token) !== undefined) return undefined;
  const message = token.startsWith(TEST_TOKEN_PREFIX)
    ? `payment_method.token ${JSON.stringify(token)} is not a known test token. The sandbox accepts these test tokens: ${tokens.describe()}`
    : `payment_method.token must be a sandbox test token beginning with ${TEST_TOKEN_PREFIX}; the sandbox accepts only test tokens: ${tokens.describe()}`;
  return { param: 'payment_method.token', code: 'invalid_value', message };
}
