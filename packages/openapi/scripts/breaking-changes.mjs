// Classifies the changes between two OpenAPI 3.1 documents as breaking or not, from a client's point of view.
import RandExp from 'randexp';

/**
 * @typedef {object} Change
 * @property {boolean} breaking Whether a client written against the old document can break.
 * @property {string} kind A short name: `removed-operation`, `removed-response-field`, …
 * @property {string} pointer The JSON pointer (`#/…`) in the document where it happened.
 * @property {string} message What changed, in words.
 */

/** @typedef {any} Node A parsed document or any node inside it. */
/** @typedef {{ oldDocument: Node, newDocument: Node, changes: Change[], seen: Set<string> }} Context */

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Escapes a JSON-pointer segment. */
const escapePointer = (/** @type {string} */ segment) =>
  String(segment).replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Follows local `$ref`s (`#/components/…`) to the node they name.
 *
 * @param {Node} document
 * @param {Node} node
 * @returns {Node}
 */
function resolve(document, node) {
  let current = node;
  for (let depth = 0; current && typeof current.$ref === 'string' && depth < 32; depth++) {
    const segments = current.$ref.replace(/^#\//, '').split('/');
    current = segments.reduce(
      (/** @type {Node} */ target, /** @type {string} */ segment) =>
        target?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
      document,
    );
  }
  return current;
}

/**
 * Whether the new pattern still accepts what the old one did, judged on 500 strings generated
 * from the old pattern (randexp): a counterexample proves a narrowing; none makes a widening
 * very likely (regular-language inclusion in general is not decided here).
 *
 * @param {string} oldPattern
 * @param {string} newPattern
 */
function patternAcceptsOld(oldPattern, newPattern) {
  const generator = new RandExp(new RegExp(oldPattern, 'u'));
  generator.max = 8;
  let seed = 1;
  generator.randInt = (/** @type {number} */ low, /** @type {number} */ high) => {
    seed = (seed * 48271) % 2147483647;
    return low + (seed % (high - low + 1));
  };
  const accepts = new RegExp(newPattern, 'u');
  for (let sample = 0; sample < 500; sample++) {
    if (!accepts.test(generator.gen())) return false;
  }
  return true;
}

/**
 * The set of JSON types a schema allows (`undefined` when it does not say).
 *
 * @param {Node} schema
 * @returns {Set<string> | undefined}
 */
function typesOf(schema) {
  if (schema?.type === undefined) return undefined;
  const types = new Set(Array.isArray(schema.type) ? schema.type : [schema.type]);
  if (types.has('integer') && types.has('number')) types.delete('integer');
  return types;
}

/**
 * Whether every value of `inner` is allowed by `outer` (both type sets; undefined = any).
 *
 * @param {Set<string> | undefined} inner
 * @param {Set<string> | undefined} outer
 */
function typesWithin(inner, outer) {
  if (outer === undefined) return true;
  if (inner === undefined) return false;
  return [...inner].every((type) => outer.has(type) || (type === 'integer' && outer.has('number')));
}

/**
 * The most items or members any value the schema accepts can have, when the schema itself fixes
 * it: distinct items of an enum (`uniqueItems`), or the declared members of a closed object
 * (`additionalProperties: false`). A new bound at or above it narrows nothing.
 *
 * @param {Node} document
 * @param {Node} schema
 * @param {string} bound
 * @returns {number | undefined}
 */
function mostAccepted(document, schema, bound) {
  if (bound === 'maxItems' && schema.uniqueItems === true) {
    const items = resolve(document, schema.items);
    const values = items?.enum ?? (items?.const !== undefined ? [items.const] : undefined);
    return values?.length;
  }
  if (bound === 'maxProperties' && schema.additionalProperties === false)
    return Object.keys(schema.properties ?? {}).length;
  return undefined;
}

/**
 * Compares two schemas. `direction` is `request` (the client sends values of it: anything the
 * old schema accepted must still be accepted) or `response` (the client receives values of it:
 * anything the new schema allows must have been allowed, and every field it relied on stays).
 *
 * @param {Context} context
 * @param {Node} oldNode
 * @param {Node} newNode
 * @param {string} pointer
 * @param {'request' | 'response'} direction
 * @param {Set<string>} seen
 */
function compareSchemas(context, oldNode, newNode, pointer, direction, seen) {
  const { oldDocument, newDocument, changes } = context;
  const before = resolve(oldDocument, oldNode);
  const after = resolve(newDocument, newNode);
  if (!before || !after) return;
  const key = `${direction}|${oldNode?.$ref ?? pointer}|${newNode?.$ref ?? pointer}`;
  if (seen.has(key)) return;
  seen.add(key);
  const add = (
    /** @type {boolean} */ breaking,
    /** @type {string} */ kind,
    /** @type {string} */ message,
  ) => changes.push({ breaking, kind, pointer, message });

  const oldTypes = typesOf(before);
  const newTypes = typesOf(after);
  if (direction === 'request' && !typesWithin(oldTypes, newTypes))
    add(
      true,
      'narrowed-type',
      `accepted type ${[...(oldTypes ?? ['any'])]} → ${[...(newTypes ?? [])]}`,
    );
  if (direction === 'response' && !typesWithin(newTypes, oldTypes))
    add(
      true,
      'widened-response-type',
      `returned type ${[...(oldTypes ?? [])]} → ${[...(newTypes ?? ['any'])]}`,
    );

  /** @type {unknown[] | undefined} */
  const oldEnum = before.enum ?? (before.const !== undefined ? [before.const] : undefined);
  /** @type {unknown[] | undefined} */
  const newEnum = after.enum ?? (after.const !== undefined ? [after.const] : undefined);
  if (direction === 'request' && oldEnum === undefined && newEnum !== undefined)
    add(true, 'narrowed-enum', `now only ${newEnum.join(', ')}`);
  if (oldEnum && newEnum) {
    const removed = oldEnum.filter((value) => !newEnum.includes(value));
    const added = newEnum.filter((value) => !oldEnum.includes(value));
    if (direction === 'request' && removed.length > 0)
      add(true, 'narrowed-enum', `no longer accepts ${removed.join(', ')}`);
    if (direction === 'response' && added.length > 0)
      add(
        false,
        'widened-response-enum',
        `may now return ${added.join(', ')} (handle unknown values)`,
      );
  }
  if (direction === 'response' && oldEnum === undefined && newEnum !== undefined)
    add(false, 'narrowed-response-enum', `now one of ${newEnum.join(', ')}`);

  if (direction === 'request') {
    /** @type {Array<[string, (a: number, b: number) => boolean]>} */
    const bounds = [
      ['maxLength', (a, b) => b < a],
      ['maximum', (a, b) => b < a],
      ['maxItems', (a, b) => b < a],
      ['minLength', (a, b) => b > a],
      ['minimum', (a, b) => b > a],
      ['minItems', (a, b) => b > a],
    ];
    bounds.push(['maxProperties', (a, b) => b < a]);
    for (const [bound, tighter] of bounds) {
      const a = before[bound];
      const b = after[bound];
      if (b === undefined || (a !== undefined && !tighter(a, b))) continue;
      const most = mostAccepted(oldDocument, before, bound);
      if (most !== undefined && most <= b)
        add(
          false,
          'redundant-bound',
          `${bound} ${a ?? 'none'} → ${b} (no accepted value had more than ${most})`,
        );
      else add(true, 'narrowed-bound', `${bound} ${a ?? 'none'} → ${b}`);
    }
    if (after.pattern !== undefined && after.pattern !== before.pattern) {
      const widened =
        before.pattern !== undefined && patternAcceptsOld(before.pattern, after.pattern);
      add(
        !widened,
        widened ? 'widened-pattern' : 'changed-pattern',
        `pattern ${before.pattern ?? 'none'} → ${after.pattern}`,
      );
    }
  }

  const oldProperties = before.properties ?? {};
  const newProperties = after.properties ?? {};
  const oldRequired = new Set(before.required ?? []);
  const newRequired = new Set(after.required ?? []);
  for (const name of Object.keys(oldProperties)) {
    const at = `${pointer}/properties/${escapePointer(name)}`;
    if (!(name in newProperties)) {
      changes.push({
        breaking: direction === 'response' || after.additionalProperties === false,
        kind: direction === 'response' ? 'removed-response-field' : 'removed-request-field',
        pointer: at,
        message: `field ${name} removed`,
      });
      continue;
    }
    if (direction === 'response' && oldRequired.has(name) && !newRequired.has(name))
      changes.push({
        breaking: true,
        kind: 'response-field-optional',
        pointer: at,
        message: `field ${name} may now be absent`,
      });
    compareSchemas(context, oldProperties[name], newProperties[name], at, direction, seen);
  }
  for (const name of Object.keys(newProperties)) {
    if (name in oldProperties) continue;
    const at = `${pointer}/properties/${escapePointer(name)}`;
    const required = newRequired.has(name);
    changes.push({
      breaking: direction === 'request' && required,
      kind:
        direction === 'request'
          ? required
            ? 'new-required-request-field'
            : 'new-optional-request-field'
          : 'new-response-field',
      pointer: at,
      message: `field ${name} added${required ? ' (required)' : ''}`,
    });
  }
  if (direction === 'request') {
    for (const name of newRequired) {
      if (!oldRequired.has(name) && name in oldProperties)
        add(true, 'new-required-request-field', `field ${name} is now required`);
    }
  }
  if (before.items || after.items)
    compareSchemas(context, before.items, after.items, `${pointer}/items`, direction, seen);
}

/**
 * The JSON schema of a request body or response (its `application/json`-like content).
 *
 * @param {Node} document
 * @param {Node} node
 * @returns {{ schema: Node, type: string } | undefined}
 */
function jsonSchemaOf(document, node) {
  const content = resolve(document, node)?.content ?? {};
  const type = Object.keys(content).find((name) => name.includes('json'));
  return type === undefined ? undefined : { schema: content[type].schema, type };
}

/** The success keys of an operation's responses: concrete 2xx codes and the `2XX` range. */
const successKeys = (/** @type {Node} */ responses) =>
  Object.keys(responses ?? {}).filter((key) => /^2(\d\d|XX)$/i.test(key));

/**
 * Whether a client accepting the old success keys also accepts `key`.
 *
 * @param {string[]} oldKeys
 * @param {string} key
 */
function successCovered(oldKeys, key) {
  return oldKeys.some((old) => old === key || (/^2XX$/i.test(old) && key.startsWith('2')));
}

/**
 * Compares one operation that both documents have.
 *
 * @param {Context} context
 * @param {string} pathName
 * @param {string} method
 * @param {Node} before
 * @param {Node} after
 */
function compareOperation(context, pathName, method, before, after) {
  const { oldDocument, newDocument, changes } = context;
  const pointer = `#/paths/${escapePointer(pathName)}/${method}`;

  const oldSuccess = successKeys(before.responses);
  const newSuccess = successKeys(after.responses);
  for (const key of newSuccess) {
    if (!successCovered(oldSuccess, key))
      changes.push({
        breaking: true,
        kind: 'changed-success-code',
        pointer: `${pointer}/responses/${key}`,
        message: `success status ${oldSuccess.join(', ')} → ${newSuccess.join(', ')}`,
      });
  }
  if (
    newSuccess.length > 0 &&
    oldSuccess.some((key) => !/^2XX$/i.test(key) && !newSuccess.includes(key))
  )
    changes.push({
      breaking: true,
      kind: 'changed-success-code',
      pointer: `${pointer}/responses`,
      message: `success status ${oldSuccess.join(', ')} → ${newSuccess.join(', ')}`,
    });

  /** @type {(operation: Node, pathItem: Node, document: Node) => Map<string, Node>} */
  const parameters = (operation, pathItem, document) =>
    new Map(
      [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])]
        .map((parameter) => resolve(document, parameter))
        .filter(Boolean)
        .map((parameter) => [`${parameter.in}:${parameter.name}`, parameter]),
    );
  const oldParameters = parameters(before, oldDocument.paths[pathName], oldDocument);
  const newParameters = parameters(after, newDocument.paths[pathName], newDocument);
  for (const [id, parameter] of newParameters) {
    const old = oldParameters.get(id);
    const at = `${pointer}/parameters/${escapePointer(id)}`;
    if (!old && parameter.required)
      changes.push({
        breaking: true,
        kind: 'new-required-parameter',
        pointer: at,
        message: `parameter ${id} added as required`,
      });
    else if (old && parameter.required && !old.required)
      changes.push({
        breaking: true,
        kind: 'new-required-parameter',
        pointer: at,
        message: `parameter ${id} is now required`,
      });
    if (old)
      compareSchemas(
        context,
        old.schema,
        parameter.schema,
        `${at}/schema`,
        'request',
        context.seen,
      );
  }
  for (const id of oldParameters.keys()) {
    if (!newParameters.has(id))
      changes.push({
        breaking: true,
        kind: 'removed-parameter',
        pointer: `${pointer}/parameters/${escapePointer(id)}`,
        message: `parameter ${id} removed`,
      });
  }

  const oldBody = resolve(oldDocument, before.requestBody);
  const newBody = resolve(newDocument, after.requestBody);
  if (newBody?.required && !oldBody?.required)
    changes.push({
      breaking: true,
      kind: 'request-body-required',
      pointer: `${pointer}/requestBody`,
      message: 'the request body is now required',
    });
  const oldRequest = jsonSchemaOf(oldDocument, before.requestBody);
  const newRequest = jsonSchemaOf(newDocument, after.requestBody);
  if (oldRequest && newRequest)
    compareSchemas(
      context,
      oldRequest.schema,
      newRequest.schema,
      `${pointer}/requestBody`,
      'request',
      context.seen,
    );

  for (const [status, response] of Object.entries(before.responses ?? {})) {
    const matching =
      after.responses?.[status] ??
      (/^2/.test(status)
        ? after.responses?.[
            newSuccess.find(
              (key) => successCovered([status], key) || successCovered([key], status),
            ) ?? ''
          ]
        : undefined);
    if (!matching) continue; // a status no longer answered cannot break a client that handled it
    const oldResponse = jsonSchemaOf(oldDocument, response);
    const newResponse = jsonSchemaOf(newDocument, matching);
    if (oldResponse && newResponse)
      compareSchemas(
        context,
        oldResponse.schema,
        newResponse.schema,
        `${pointer}/responses/${status}`,
        'response',
        context.seen,
      );
  }
}

/**
 * Lists every change between two documents that a client can notice, each marked breaking or
 * not: removed paths and operations, success codes, parameters, request and response schemas
 * (`$ref`s followed), webhook payloads.
 *
 * @param {Node} oldDocument The last released spec.
 * @param {Node} newDocument The spec in the tree.
 * @returns {Change[]}
 * @example
 * const changes = classifyChanges(released, current);
 * changes.filter((change) => change.breaking).map((change) => change.pointer);
 */
export function classifyChanges(oldDocument, newDocument) {
  /** @type {Change[]} */
  const changes = [];
  /** @type {Context} */
  // Shared schemas are compared once, so each change is reported at the first place it shows.
  const context = { oldDocument, newDocument, changes, seen: new Set() };
  for (const [pathName, pathItem] of Object.entries(oldDocument.paths ?? {})) {
    const newItem = newDocument.paths?.[pathName];
    if (!newItem) {
      changes.push({
        breaking: true,
        kind: 'removed-path',
        pointer: `#/paths/${escapePointer(pathName)}`,
        message: `path ${pathName} removed`,
      });
      continue;
    }
    for (const method of METHODS) {
      if (!pathItem[method]) continue;
      if (!newItem[method]) {
        changes.push({
          breaking: true,
          kind: 'removed-operation',
          pointer: `#/paths/${escapePointer(pathName)}/${method}`,
          message: `operation ${method.toUpperCase()} ${pathName} (${pathItem[method].operationId}) removed`,
        });
        continue;
      }
      compareOperation(context, pathName, method, pathItem[method], newItem[method]);
    }
  }
  for (const [pathName, pathItem] of Object.entries(newDocument.paths ?? {})) {
    for (const method of METHODS) {
      if (pathItem[method] && !oldDocument.paths?.[pathName]?.[method])
        changes.push({
          breaking: false,
          kind: 'new-operation',
          pointer: `#/paths/${escapePointer(pathName)}/${method}`,
          message: `operation ${method.toUpperCase()} ${pathName} added`,
        });
    }
  }
  for (const [name, webhook] of Object.entries(oldDocument.webhooks ?? {})) {
    const newWebhook = newDocument.webhooks?.[name];
    const pointer = `#/webhooks/${escapePointer(name)}`;
    if (!newWebhook) {
      changes.push({
        breaking: true,
        kind: 'removed-webhook',
        pointer,
        message: `webhook ${name} removed`,
      });
      continue;
    }
    // The client receives a webhook's payload: it is compared as a response.
    const before = jsonSchemaOf(oldDocument, webhook.post?.requestBody);
    const after = jsonSchemaOf(newDocument, newWebhook.post?.requestBody);
    if (before && after)
      compareSchemas(
        context,
        before.schema,
        after.schema,
        `${pointer}/post/requestBody`,
        'response',
        context.seen,
      );
  }
  return changes;
}
