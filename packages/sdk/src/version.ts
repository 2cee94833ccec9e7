// The SDK's version, sent in User-Agent; a test keeps it equal to package.json's.

/** The version of @payment-service/sdk. */
export const sdkVersion = '0.1.0';
