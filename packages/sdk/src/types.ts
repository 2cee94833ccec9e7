// The SDK's resource types, each an alias of a schema generated from spec/openapi.yaml.
import type { components, operations } from '@payment-service/openapi';

type Schemas = components['schemas'];

/** A payment record (`pay_…`). Documented (2.1); fields past the documented six are inferred. */
export type Payment = Schemas['Payment'];
/** A payment's status. Inferred, except `SUCCEEDED` which is documented (2.1, 3). */
export type PaymentStatus = Schemas['PaymentStatus'];
/** A page of payments with cursor pagination. Inferred: listing is not shown. */
export type PaymentList = Schemas['PaymentList'];
/** A refund of all or part of a payment (`ref_…`). Inferred: refunds are not shown. */
export type Refund = Schemas['Refund'];
/** The fields of a payment-creation request. Documented (2.2); which are required is inferred. */
export type CreatePaymentParams = Schemas['CreatePaymentRequest'];
/** Capture options: an optional partial `amount`. Inferred: capture is not shown. */
export type CapturePaymentParams = Schemas['CapturePaymentRequest'];
/** Refund options: an optional partial `amount`. Inferred: refunds are not shown. */
export type CreateRefundParams = Schemas['CreateRefundRequest'];
/** An RFC 9457 problem details error body. Inferred: errors are not shown. */
export type Problem = Schemas['Problem'];
/** One problem with one request field, inside `Problem.errors`. Inferred. */
export type FieldError = Schemas['FieldError'];
/** Query of a list request: `limit` (1–100) and the `starting_after` cursor. Inferred. */
export type ListPaymentsParams = NonNullable<operations['listPayments']['parameters']['query']>;
/** Query of `listAll`: the page size; the cursor is managed for you. Inferred. */
export type ListAllPaymentsParams = Omit<ListPaymentsParams, 'starting_after'>;
