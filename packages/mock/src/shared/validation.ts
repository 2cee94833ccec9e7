// Request-body validation: Ajv validators compiled from the spec at build time, errors in words.
import type { components, SandboxComponents } from '@payment-service/openapi';
import type { ErrorObject } from 'ajv/dist/2020.js';
import type {
  openapiRequestValidators,
  sandboxRequestValidators,
} from '../generated/request-validators.js';
import type { CompiledValidator, RequestValidator } from './compiled-validator.js';
import type { FieldError } from './problems.js';

export type { CompiledValidator, RequestValidator } from './compiled-validator.js';

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
  format?: string;
  examples?: unknown[];
  properties?: Record<string, unknown>;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
}

/** The body validators of one spec document's request schemas. */
export interface SchemaValidators<Schemas, Names extends keyof Schemas & string> {
  /** The validator of one request-body schema. */
  validator<Name extends Names>(name: Name): BodyValidator<Schemas[Name]>;
}

/**
 * Whether a compiled validator accepts a value: the runtime check that narrows it to the schema's
 * generated type (the schema and the type come from the same spec).
 *
 * @example
 * if (passes<CreatePaymentRequest>(validate.check, body)) body.amount;
 */
export function passes<T>(check: CompiledValidator, value: unknown): value is T {
  return check(value);
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
 * body to the schema's generated type or lists every field problem in words. A body over one of
 * its bounds gets that one problem, found without walking the rest of it.
 *
 * @example
 * const validators = createSchemaValidators<components['schemas'], keyof typeof openapiRequestValidators>(openapiRequestValidators);
 * validators.validator('CreatePaymentRequest')({ amount: 0 });
 * // { ok: false, errors: [{ param: 'amount', code: 'minimum', message: 'amount must be an integer ≥ 1 and ≤ 999999999999' }, …] }
 */
export function createSchemaValidators<Schemas, Names extends keyof Schemas & string>(
  compiled: Readonly<Record<Names, RequestValidator>>,
): SchemaValidators<Schemas, Names> {
  return {
    validator<Name extends Names>(name: Name): BodyValidator<Schemas[Name]> {
      const validate: RequestValidator | undefined = Object.hasOwn(compiled, name)
        ? compiled[name]
        : undefined;
      if (validate === undefined) {
        throw new Error(`The spec has no request-body schema named ${name}.`);
      }
      return (body) => {
        if (passes<Schemas[Name]>(validate.check, body)) return { ok: true, value: body };
        const first = validate.check.errors?.[0];
        if (first !== undefined && BOUND_KEYWORDS.has(first.keyword)) {
          return { ok: false, errors: [toBoundError(first)] };
        }
        validate.explain(body);
        return { ok: false, errors: toFieldErrors(validate.explain.errors) };
      };
    },
  };
}

/** The keywords of a body's bounds: a body over one is refused with that one problem. */
const BOUND_KEYWORDS: ReadonlySet<string> = new Set(['maxProperties', 'maxItems', 'maxLength']);

/** The problem of a body over one of its bounds, in words. */
function toBoundError(error: ErrorObject): FieldError {
  const param = pointerToParam(error.instancePath);
  const limit = Number(error.params.limit);
  const subject = param === '' ? 'the request body' : param;
  switch (error.keyword) {
    case 'maxProperties':
      return {
        param,
        code: 'max_properties',
        message: `${subject} must have at most ${limit} members`,
      };
    case 'maxItems':
      return { param, code: 'max_items', message: `${subject} must have at most ${limit} items` };
    default:
      return {
        param,
        code: 'max_length',
        message: `${subject} must be a string of at most ${limit} characters`,
      };
  }
}

function toFieldErrors(found: readonly ErrorObject[] | null | undefined): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  for (const error of found ?? []) {
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
        message: `${base === '' ? 'the request body' : base} must be ${describeExpectation(ruleOf(error.keyword, schema))}`,
      };
  }
}

/**
 * The part of a string schema that names the rule a value broke: a value that fails the pattern
 * is not told about the length it meets, nor one over the length about the pattern.
 */
function ruleOf(keyword: string, schema: SchemaLike): SchemaLike {
  const { minLength, maxLength, pattern, format, ...rest } = schema;
  if (keyword === 'format') return { ...rest, ...(format === undefined ? {} : { format }) };
  if (keyword === 'pattern') return { ...rest, ...(pattern === undefined ? {} : { pattern }) };
  const lengths = {
    ...(minLength === undefined ? {} : { minLength }),
    ...(maxLength === undefined ? {} : { maxLength }),
  };
  if (keyword === 'minLength' || keyword === 'maxLength') return { ...rest, ...lengths };
  // Any other rule (a type): the value's whole shape, its format left to the format's own message.
  return { ...rest, ...lengths, ...(pattern === undefined ? {} : { pattern }) };
}

/** What each string format of the specs means, in words. */
const FORMAT_RULES: Record<string, string> = {
  uri: 'an absolute URI as RFC 3986 defines it (format uri): ASCII only, so write an international host name in its punycode form (xn--…) and percent-encode any other character outside ASCII',
};

const CODE_BY_KEYWORD: Record<string, string> = {
  type: 'type',
  minimum: 'minimum',
  exclusiveMinimum: 'minimum',
  maximum: 'maximum',
  exclusiveMaximum: 'maximum',
  minLength: 'min_length',
  maxLength: 'max_length',
  minItems: 'min_items',
  maxItems: 'max_items',
  uniqueItems: 'unique_items',
  maxProperties: 'max_properties',
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
      if (schema.format !== undefined) {
        return FORMAT_RULES[schema.format] ?? `a string of format ${schema.format}`;
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
    case 'array': {
      const counts: string[] = [];
      if (schema.minItems !== undefined) counts.push(`at least ${schema.minItems}`);
      if (schema.maxItems !== undefined) counts.push(`at most ${schema.maxItems}`);
      const unique = schema.uniqueItems === true ? ' distinct' : '';
      return counts.length > 0
        ? `an array of ${counts.join(' and ')}${unique} items`
        : `an array${unique === '' ? '' : ' of distinct items'}`;
    }
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

/** The most characters of a member name a message repeats (an unknown member's name is the client's). */
const MAX_ECHOED_NAME = 64;

function joinParam(base: string, field: string): string {
  const name = field.length > MAX_ECHOED_NAME ? `${field.slice(0, MAX_ECHOED_NAME)}…` : field;
  return base === '' ? name : `${base}.${name}`;
}
