// The `@payment-service/mock/node` entry: the mock served over HTTP by Node (implemented in server/node-server.ts).
export {
  type AllowedHosts,
  DEFAULT_HTTP_LIMITS,
  type HttpLimits,
  type RunningMockServer,
  type StartMockServerOptions,
  startMockServer,
} from './server/node-server.js';
