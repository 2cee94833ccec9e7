// Public entry: the types generated from spec/openapi.yaml and spec/sandbox.yaml, and both spec documents.
export type { components, operations, paths, webhooks } from './generated/openapi.js';
export { openapiDocument } from './generated/openapi-document.js';
export type {
  components as SandboxComponents,
  operations as SandboxOperations,
  paths as SandboxPaths,
  webhooks as SandboxWebhooks,
} from './generated/sandbox.js';
export { sandboxDocument } from './generated/sandbox-document.js';
export { type ErrorCode, errorCodes, testTokens } from './generated/vocabulary.js';
