// Validates a file the user wrote (config, baseline) against its JSON Schema with Ajv, and says what is wrong naming the field: `config.failOn: expected one of …`.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { ConfigurationError } from '../errors.js';
import { cleanTargetText } from '../untrusted-text.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<object, ValidateFunction>();

/** The field an error is about, from `root` and the error's instance path: `config.reports[0].format`. */
function fieldOf(root: string, instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce(
      (field, token) =>
        /^\d+$/.test(token)
          ? `${field}[${token}]`
          : /^[A-Za-z_$][\w$]*$/.test(token)
            ? `${field}.${token}`
            : `${field}[${JSON.stringify(token)}]`,
      root,
    );
}

/** One Ajv error in words, naming the field. */
function describe(root: string, error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const field = fieldOf(root, error.instancePath);
  const schema = error.parentSchema as { description?: string } | undefined;
  switch (error.keyword) {
    case 'required':
      return `${field}.${String(params.missingProperty)}: is required`;
    case 'additionalProperties':
      return `${field}: unknown field ${JSON.stringify(cleanTargetText(String(params.additionalProperty), 100))}`;
    case 'enum':
      return `${field}: expected one of ${(params.allowedValues as unknown[]).map(String).join(', ')}`;
    case 'const':
      return `${field}: expected ${JSON.stringify(params.allowedValue)}`;
    case 'type':
      return `${field}: expected ${String(params.type)}`;
    case 'pattern':
    case 'format':
      return `${field}: expected ${schema?.description ?? `a value matching ${String(params.pattern ?? params.format)}`}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
      return `${field}: expected a number ${String(params.comparison)} ${String(params.limit)}`;
    case 'minLength':
      return `${field}: expected a non-empty string`;
    case 'minItems':
      return `${field}: expected at least ${String(params.limit)} item(s)`;
    default:
      return `${field}: ${error.message ?? error.keyword}`;
  }
}

/**
 * Validates `value` against `schema` (JSON Schema 2020-12); throws a ConfigurationError (exit 2)
 * naming the first wrong field, as `root.field: what was expected`.
 *
 * @example
 * assertMatchesSchema(configSchema, { failOn: 'sometimes' }, 'config'); // throws: config.failOn: expected one of documented, inferred, any, none
 */
export function assertMatchesSchema(schema: object, value: unknown, root: string): void {
  ajv ??= addFormats(new Ajv2020({ strict: false, allErrors: false, verbose: true }));
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(value)) return;
  const [first] = validate.errors ?? [];
  throw new ConfigurationError(first ? describe(root, first) : `${root}: not valid`);
}
