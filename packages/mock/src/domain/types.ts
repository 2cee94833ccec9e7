// The domain's wire types, taken from the generated spec types so the mock cannot drift from them.
import type { components } from '@payment-service/openapi';

type Schemas = components['schemas'];

/** A payment record exactly as the spec's `Payment` schema describes it. */
export type Payment = Schemas['Payment'];
/** One of the spec's payment statuses. */
export type PaymentStatus = Schemas['PaymentStatus'];
/** A refund exactly as the spec's `Refund` schema describes it. */
export type Refund = Schemas['Refund'];
/** The body of a payment-creation request. */
export type CreatePaymentRequest = Schemas['CreatePaymentRequest'];
/** The body of a capture request. */
export type CapturePaymentRequest = Schemas['CapturePaymentRequest'];
/** The body of a refund request. */
export type CreateRefundRequest = Schemas['CreateRefundRequest'];
/** A page of payments. */
export type PaymentList = Schemas['PaymentList'];
