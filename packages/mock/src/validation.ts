// Request-body validation: Ajv validators compiled from the spec at build time, errors in words.
import type { components, SandboxComponents } from '@payment-service/openapi';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type {
  openapiRequestValidators,
  sandboxRequestValidators,
} from './generated/request-validators.js';
import type { FieldError } from './problems.js';

/**
 * A validator compiled by Ajv's standalone code (src/generated/request-validators.ts): true for a
 * valid value; otherwise every problem is in `errors` (Ajv's `allErrors` and `verbose` options).
 */
export interface CompiledValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** A checked body: the value narrowed to its generated type, or every field problem. */
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** Checks a parsed JSON body against one schema, narrowing it to the schema's generated type. */
export type BodyValidator<T> = (body: unknown) => Checked<T>;

interface SchemaLike {
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  examples?: unknown[];
  properties?: Record<string, unknown>;
}

/** The body validators of one spec document's request schemas. */
export interface SchemaValidators<Schemas, Names extends keyof Schemas & string> {
  /** The validator of one request-body schema. */
  validator<Name extends Names>(name: Name): BodyValidator<Schemas[Name]>;
}

/** The validators of the API's request bodies. */
export type ApiValidators = SchemaValidators<
  components['schemas'],
  keyof typeof openapiRequestValidators
>;

/** The validators of the sandbox controls' request bodies. */
export type SandboxValidators = SchemaValidators<
  SandboxComponents['schemas'],
  keyof typeof sandboxRequestValidators
>;

/**
 * Wraps the compiled validators of a spec document's request-body schemas: each narrows a parsed
 * body to the schema's generated type or lists every field problem in words.
 *
 * @example
 * const validators = createSchemaValidators<components['schemas'], keyof typeof openapiRequestValidators>(openapiRequestValidators);
 * validators.validator('CreatePaymentRequest')({ amount: 0 });
 * // { ok: false, errors: [{ param: 'amount', code: 'minimum', message: 'amount must be an integer ≥ 1 and ≤ 999999999999' }, …] }
 */
export function createSchemaValidators<Schemas, Names extends keyof Schemas & string>(
  compiled: Readonly<Record<Names, CompiledValidator>>,
): SchemaValidators<Schemas, Names> {
  return {
    validator<Name extends Names>(name: Name): BodyValidator<Schemas[Name]> {
      const validate: CompiledValidator | undefined = Object.hasOwn(compiled, name)
        ? compiled[name]
        : undefined;
      if (validate === undefined) {
        throw new Error(`The spec has no request-body schema named ${name}.`);
      }
      return (body) =>
        validate(body)
          ? { ok: true, value: body as Schemas[Name] }
          : { ok: false, errors: toFieldErrors(validate) };
    },
  };
}

function toFieldErrors(validate: CompiledValidator): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of validate.errors ?? []) {
    const fieldError = toFieldError(error);
    const identity = `${fieldError.param}\u0000${fieldError.message}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    errors.push(fieldError);
  }
  return errors;
}

function toFieldError(error: ErrorObject): FieldError {
  const base = pointerToParam(error.instancePath);
  const schema = (error.parentSchema ?? {}) as SchemaLike;
  switch (error.keyword) {
    case 'required': {
      const param = joinParam(base, String(error.params.missingProperty));
      return { param, code: 'required', message: `${param} is required` };
    }
    case 'additionalProperties': {
      const param = joinParam(base, String(error.params.additionalProperty));
      const known = Object.keys(schema.properties ?? {});
      const where = base === '' ? 'the request' : base;
      return {
        param,
        code: 'unknown_field',
        message:
          known.length > 0
            ? `${param} is not a known field; ${where} accepts ${known.join(', ')}`
            : `${param} is not a known field; ${where} takes no fields`,
      };
    }
    default:
      return {
        param: base,
        code: CODE_BY_KEYWORD[error.keyword] ?? 'invalid_value',
        message: `${base === '' ? 'the request body' : base} must be ${describeExpectation(schema)}`,
      };
  }
}

const CODE_BY_KEYWORD: Record<string, string> = {
  type: 'type',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
  minLength: 'min_length',
  maxLength: 'max_length',
};

/**
 * Describes in words what a schema accepts.
 *
 * @example
 * describeExpectation({ type: 'integer', minimum: 1 }); // 'an integer ≥ 1'
 */
export function describeExpectation(schema: SchemaLike): string {
  if (schema.const !== undefined) return `exactly ${JSON.stringify(schema.const)}`;
  if (schema.enum !== undefined) {
    return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'integer':
    case 'number': {
      const bounds: string[] = [];
      if (schema.minimum !== undefined) bounds.push(`≥ ${schema.minimum}`);
      if (schema.maximum !== undefined) bounds.push(`≤ ${schema.maximum}`);
      const noun = type === 'integer' ? 'an integer' : 'a number';
      return bounds.length > 0 ? `${noun} ${bounds.join(' and ')}` : noun;
    }
    case 'string': {
      let text = 'a string';
      if (schema.minLength !== undefined && schema.maxLength !== undefined) {
        text += ` of ${schema.minLength} to ${schema.maxLength} characters`;
      } else if (schema.maxLength !== undefined) {
        text += ` of at most ${schema.maxLength} characters`;
      } else if (schema.minLength !== undefined) {
        text += ` of at least ${schema.minLength} character${schema.minLength === 1 ? '' : 's'}`;
      }
      if (schema.pattern !== undefined) text += ` matching ${schema.pattern}`;
      if (schema.examples !== undefined && schema.examples.length > 0) {
        text += ` (for example ${schema.examples.map(String).join(' or ')})`;
      }
      return text;
    }
    case 'boolean':
      return 'a boolean (true or false)';
    case 'object':
      return 'a JSON object';
    case 'array':
      return 'an array';
    default:
      return 'a valid value';
  }
}

function pointerToParam(pointer: string): string {
  if (pointer === '') return '';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

function joinParam(base: string, field: string): string {
  return base === '' ? field : `${base}.${field}`;
}
