// The mock's version, answered by GET /_sandbox/health; a test keeps it equal to package.json's.

/** The version of @payment-service/mock. */
export const mockVersion = '0.1.0';
