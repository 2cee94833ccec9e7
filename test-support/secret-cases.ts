// The cases every place that masks API keys is tested with (the SDK's maskSecrets, the mock's log lines, problems and inspector, the contract's reports, HAR and proxy output): what must be masked, and what must stay as written.

const basic = (credentials: string) => Buffer.from(credentials).toString('base64');

/** A key as the sandbox hands them out, and one a merchant typed. */
const KEY = 'sk_test_4eC39HqLyjWDarjtT1zdp7dc';
const LIVE = 'sk_live_51HabcdefGHIJ0123';

/**
 * Texts holding a secret, and the part of it that must never be shown: `[what, text, secret]`.
 * Masked text shows neither `secret` nor (for a key) its characters after the prefix.
 */
export const MUST_MASK: ReadonlyArray<readonly [string, string, string]> = [
  ['a key after a space', `key ${KEY} refused`, KEY],
  ['a Bearer header value', `Bearer ${LIVE}`, LIVE],
  ['a key glued after `_`', `id=x_${KEY}`, KEY],
  ['a key glued after a letter', `Bearer${LIVE}`, LIVE],
  ['a key glued after a digit', `123${KEY}`, KEY],
  ['a key of the shortest well-formed length glued after a word', 'x_sk_test_abcdefgh', 'abcdefgh'],
  ['a short key standing alone', '(sk_test_a1)', 'sk_test_a1'],
  ['a key with punctuation the SDK accepts', 'Bearer sk_live_Zz9-x.y!z', 'Zz9-x.y!z'],
  ['another mode', 'any mode: sk_prod_abc123', 'abc123'],
  ['a key in a JSON string', `{"detail":"${KEY} was sent"}`, KEY],
  ['a key as a JSON member name', `{"${KEY}":1}`, KEY],
  ['a key JSON-escaped', '{"k":"sk\\u005ftest_harsecret_0001"}', 'harsecret_0001'],
  ['a key in a URL path', `/v1/payments/${KEY}/refunds`, KEY],
  ['a key in a query string', `/v1/payments?limit=1&key=${KEY}&x=1`, KEY],
  ['a key percent-encoded', '/v1/payments/sk%5Ftest%5Fabcdefgh123', 'abcdefgh123'],
  ['a key percent-encoded in lower case', '/v1/payments/sk%5ftest%5fabcdefgh123', 'abcdefgh123'],
  ['a key percent-encoded twice', '/v1/payments/sk%255Ftest%255Fabcdefgh123', 'abcdefgh123'],
  [
    'a key percent-encoded letter by letter',
    '/x/%73%6B%5F%6C%69%76%65%5F%61%62%63%64',
    '%61%62%63%64',
  ],
  ['a key percent-encoded after a word', 'q=1&key=x%5Fsk%5Ftest%5Fabcdefgh&z=2', 'abcdefgh'],
  ['a key in Basic credentials', `Authorization: Basic ${basic(`${LIVE}:`)}`, basic(`${LIVE}:`)],
  ['a key as the Basic password', `Basic ${basic(`user:${KEY}`)}`, basic(`user:${KEY}`)],
  [
    'Basic credentials in a form body (its space a +)',
    `auth=Basic+${basic(`${LIVE}:`)}&x=1`,
    basic(`${LIVE}:`),
  ],
  ['a signing secret', 'secret whsec_c2VjcmV0+/a= sent', 'c2VjcmV0+/a='],
  [
    'a signing secret glued after a word',
    'id_whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    'MfKQ9r8GKYqrTwjUPD8',
  ],
  ['a signing secret percent-encoded', '/x/whsec%5Fc2Vj%2BcmV0%3D/y', 'c2Vj'],
];

/**
 * Texts with no secret, each kept exactly as written: advice naming a prefix, and words that
 * hold `sk_` (a key glued after a word needs `sk_test_`/`sk_live_` and 8 key characters).
 */
export const MUST_NOT_MASK: readonly string[] = [
  'no key here',
  'POST /v1/payments 201 12ms req_1',
  'it must be `sk_…` followed by 8 to 128 characters',
  'Use an sk_… key here, not sk_test_',
  'keys look like sk_test_…',
  '7 requests refused for an sk_live_ key',
  'the task_test_ suite',
  'task_test_runner passed',
  'desk_live_feed',
  '{"risk_level_high":true}',
  'disk_cache_directory',
  'the secret begins with whsec_',
  '/v1/payments/pay_4eC39HqLyjWDarjtT1zdp7dc',
  'Basic dXNlcjpwYXNz',
  '100% done, 5%5F is not a key',
];
