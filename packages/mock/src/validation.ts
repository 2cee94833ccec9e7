// Request-body validation: schemas compiled once from the spec with Ajv 2020, errors in words.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { FieldError } from './problems.js';

// ajv-formats is CommonJS; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** A spec document with component schemas, such as `openapiDocument` or `sandboxDocument`. */
export interface SpecDocument {
  components?: { schemas?: Record<string, unknown> };
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

let documentCounter = 0;

/** Makes validators for the component schemas of one spec document. */
export interface SchemaValidators<Schemas> {
  /** The validator of one named schema, compiled on first use. */
  validator<Name extends keyof Schemas & string>(name: Name): BodyValidator<Schemas[Name]>;
}

/**
 * Makes validators for the named component schemas of a spec document: each narrows a parsed
 * body to the schema's generated type or lists every field problem in words.
 *
 * @example
 * const validators = createSchemaValidators<components['schemas']>(openapiDocument);
 * validators.validator('CreatePaymentRequest')({ amount: 0 });
 * // { ok: false, errors: [{ param: 'amount', code: 'minimum', message: 'amount must be an integer ≥ 1 and ≤ 999999999999' }, …] }
 */
export function createSchemaValidators<Schemas>(document: SpecDocument): SchemaValidators<Schemas> {
  // validateSchema: false skips checking the document against the 2020-12 meta-schema, whose
  // compilation was most of the mock's start-up; `npm run lint:spec` checks the spec instead.
  const ajv = new Ajv2020({ allErrors: true, strict: false, verbose: true, validateSchema: false });
  addFormats(ajv);
  const documentId = `urn:payment-service:spec:${documentCounter++}`;
  ajv.addSchema({ $id: documentId, components: document.components ?? {} });
  return {
    validator<Name extends keyof Schemas & string>(name: Name): BodyValidator<Schemas[Name]> {
      if (document.components?.schemas?.[name] === undefined) {
        throw new Error(`The spec document has no schema named ${name}.`);
      }
      // Compiled on first use, so start-up pays only for the validators a run needs.
      let validate: ValidateFunction<Schemas[Name]> | undefined;
      return (body) => {
        validate ??= ajv.compile<Schemas[Name]>({
          $ref: `${documentId}#/components/schemas/${name}`,
        });
        return validate(body)
          ? { ok: true, value: body }
          : { ok: false, errors: toFieldErrors(validate) };
      };
    },
  };
}

function toFieldErrors(validate: ValidateFunction<unknown>): FieldError[] {
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
