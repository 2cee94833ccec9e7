// The merchant's script each fresh project runs: one body, with CommonJS, ESM or TypeScript imports in front.

/** How the script loads the packages. */
export type ScriptFlavour = 'commonjs' | 'esm' | 'typescript';

const HEADERS: Record<ScriptFlavour, string> = {
  commonjs: [
    "const { createClient, webhooks, WebhookSignatureError } = require('@payment-service/sdk');",
    "const { startWebhookReceiver } = require('@payment-service/sdk/node');",
    "const { createMockServer } = require('@payment-service/mock');",
    "const { openapiDocument } = require('@payment-service/openapi');",
  ].join('\n'),
  esm: [
    "import { createClient, webhooks, WebhookSignatureError } from '@payment-service/sdk';",
    "import { startWebhookReceiver } from '@payment-service/sdk/node';",
    "import { createMockServer } from '@payment-service/mock';",
    "import { openapiDocument } from '@payment-service/openapi';",
  ].join('\n'),
  typescript: [
    "import { createClient, webhooks, WebhookSignatureError, type Payment } from '@payment-service/sdk';",
    "import { startWebhookReceiver } from '@payment-service/sdk/node';",
    "import { createMockServer, type MockServer } from '@payment-service/mock';",
    "import { openapiDocument } from '@payment-service/openapi';",
    // No @types/node in these projects: the script declares the one Node global it reads.
    'declare const process: { env: Record<string, string | undefined> };',
    'const typed: { payment?: Payment; mock?: MockServer } = {};',
    'void typed;',
  ].join('\n'),
};

// Valid as JavaScript and as strict TypeScript: no annotations, no untyped parameters.
const BODY = `
async function main() {
  const apiKey = 'sk_test_packagetests';
  const mock = createMockServer();
  const local = createClient({ apiKey, baseUrl: 'http://sandbox.test', fetch: mock.fetch });
  const inProcess = await local.payments.create({
    amount: 1000,
    currency: 'KZT',
    payment_method: { type: 'token', token: 'tok_test_success' },
  });
  mock.close();

  const remote = createClient({ apiKey, baseUrl: process.env.MOCK_URL ?? 'missing MOCK_URL' });
  const overHttp = await remote.payments.create({
    amount: 2500,
    currency: 'KZT',
    payment_method: { type: 'token', token: 'tok_test_success' },
  });

  const delivery = JSON.parse(process.env.DELIVERY ?? '{}');
  const secret = process.env.WEBHOOK_SECRET ?? 'missing WEBHOOK_SECRET';
  const event = await webhooks.verify(delivery.body, delivery.headers, secret);
  const forged = await webhooks
    .verify(delivery.body, delivery.headers, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')
    .then(() => 'accepted', (error) => (error instanceof WebhookSignatureError ? error.code : String(error)));

  // The Node entry's receiver: the same delivery, posted to it, verifies and is kept.
  const receiver = await startWebhookReceiver({ secret });
  const signatureHeaders = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, delivery.headers[name]]),
  );
  const posted = await fetch(receiver.url, { method: 'POST', body: delivery.body, headers: signatureHeaders });
  const received = posted.status + ' ' + receiver.events().map((event) => event.type).join(',');
  await receiver.close();

  console.log(
    'RESULT ' +
      JSON.stringify({
        inProcess: inProcess.status,
        overHttp: overHttp.status,
        event: event.type,
        forged,
        received,
        specVersion: openapiDocument.info.version,
      }),
  );
}

main().catch((error) => {
  console.error(error);
  throw error;
});
`;

/**
 * The merchant script's source for one flavour.
 *
 * @example
 * writeFileSync('smoke.cjs', merchantScript('commonjs'));
 */
export function merchantScript(flavour: ScriptFlavour): string {
  return `${HEADERS[flavour]}\n${BODY}`;
}
