// Subpath entry `@payment-service/openapi/sandbox`: the mock's sandbox-control types under their plain names.
export type { components, operations, paths, webhooks } from './generated/sandbox.js';
export { sandboxDocument } from './generated/sandbox-document.js';
