// Finds spec elements that lack a valid `x-provenance` (documented with a section ref, or inferred with a note).

/** The HTTP methods a Path Item can hold. */
const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** A section number of the provider's document: `5`, `2.1`, `4.1.3`. */
const sectionPattern = /^\d+(\.\d+)*$/;

/**
 * @typedef {object} ProvenanceProblem
 * @property {string} pointer JSON pointer of the element, e.g. `/paths/~1v1~1payments/post`.
 * @property {string} message What is wrong with its provenance.
 */

/**
 * @typedef {object} ProvenanceReport
 * @property {number} checked How many elements must carry provenance.
 * @property {ProvenanceProblem[]} problems The elements whose provenance is missing or invalid.
 */

/**
 * Escapes one reference token of a JSON pointer (RFC 6901).
 *
 * @param {string | number} token
 * @returns {string}
 */
const escapeToken = (token) => String(token).replaceAll('~', '~0').replaceAll('/', '~1');

/**
 * Tells whether a value is a plain object (a mapping in the spec).
 *
 * @param {unknown} value
 * @returns {value is Record<string, any>}
 */
const isObject = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Tells what is wrong with one element's provenance, if anything.
 *
 * @param {Record<string, unknown>} element A spec element that must carry provenance.
 * @returns {string | undefined} The problem, or `undefined` when the provenance is valid.
 * @example
 * provenanceProblem({ 'x-provenance': 'documented', 'x-provenance-ref': '2.1' }); // => undefined
 * provenanceProblem({ 'x-provenance': 'documented' }); // => 'documented but x-provenance-ref …'
 */
export function provenanceProblem(element) {
  const provenance = element['x-provenance'];
  if (provenance === undefined) return 'missing x-provenance (documented or inferred)';
  if (provenance === 'documented') {
    const ref = element['x-provenance-ref'];
    if (typeof ref === 'string' && sectionPattern.test(ref)) return undefined;
    if (ref === undefined)
      return 'documented but x-provenance-ref (the section, e.g. "2.1") is missing';
    return `x-provenance-ref must be a section number string such as "2.1" (quoted in YAML), not ${JSON.stringify(ref)}`;
  }
  if (provenance === 'inferred') {
    const note = element['x-provenance-note'];
    if (typeof note === 'string' && note.trim() !== '') return undefined;
    return 'inferred but x-provenance-note (one line saying why) is missing or empty';
  }
  return `x-provenance is ${JSON.stringify(provenance)}; expected documented or inferred`;
}

/**
 * Checks every element of an OpenAPI 3.1 document that must say where it comes from: operations
 * (in paths, webhooks, callbacks and components/pathItems), parameters, request bodies,
 * responses, headers, security schemes, and schemas (every components/schemas entry, every
 * property, and every other inline schema that declares `properties`). A property or nested
 * schema without its own provenance inherits it from the nearest enclosing element that has it
 * (its schema, parameter, response or request body); a named schema never inherits. A `$ref` is
 * exempt: its target is checked where it is defined.
 *
 * @param {unknown} document A parsed spec.
 * @returns {ProvenanceReport} How many elements were checked, and the problems found.
 * @example
 * const { problems } = checkProvenance(parse(readFileSync('spec/openapi.yaml', 'utf8')));
 * for (const { pointer, message } of problems) console.error(`#${pointer}: ${message}`);
 */
export function checkProvenance(document) {
  /** @type {ProvenanceProblem[]} */
  const problems = [];
  let checked = 0;

  /**
   * @param {Record<string, unknown>} element
   * @param {string} pointer
   */
  const expectProvenance = (element, pointer) => {
    checked += 1;
    const message = provenanceProblem(element);
    if (message !== undefined) problems.push({ pointer, message });
  };

  /**
   * Applies `visit` to each entry of a mapping.
   *
   * @param {unknown} map
   * @param {string} pointer
   * @param {(value: unknown, pointer: string) => void} visit
   */
  const eachEntry = (map, pointer, visit) => {
    if (!isObject(map)) return;
    for (const [key, value] of Object.entries(map)) visit(value, `${pointer}/${escapeToken(key)}`);
  };

  /**
   * Applies `visit` to each item of a list.
   *
   * @param {unknown} list
   * @param {string} pointer
   * @param {(value: unknown, pointer: string) => void} visit
   */
  const eachItem = (list, pointer, visit) => {
    if (!Array.isArray(list)) return;
    for (const [index, value] of list.entries()) visit(value, `${pointer}/${index}`);
  };

  /**
   * `x-provenance-values` gives single enum values a provenance of their own (the provider
   * documents `SUCCEEDED` and not its siblings): each key must be one of the schema's `enum`
   * values and carry valid provenance.
   *
   * @param {Record<string, unknown>} schema
   * @param {string} pointer
   */
  const visitValueProvenance = (schema, pointer) => {
    const values = schema['x-provenance-values'];
    const at = `${pointer}/x-provenance-values`;
    if (!isObject(values)) {
      checked += 1;
      problems.push({
        pointer: at,
        message: 'x-provenance-values must map enum values to provenance',
      });
      return;
    }
    const members = Array.isArray(schema.enum) ? schema.enum.map(String) : [];
    eachEntry(values, at, (value, valueAt) => {
      const name = valueAt
        .slice(at.length + 1)
        .replaceAll('~1', '/')
        .replaceAll('~0', '~');
      if (!members.includes(name)) {
        checked += 1;
        problems.push({
          pointer: valueAt,
          message: `${JSON.stringify(name)} is not one of the schema's enum values`,
        });
      } else if (isObject(value)) expectProvenance(value, valueAt);
      else {
        checked += 1;
        problems.push({ pointer: valueAt, message: 'expected x-provenance (and its ref or note)' });
      }
    });
  };

  /**
   * @param {unknown} schema
   * @param {string} pointer
   * @param {'named' | 'property' | 'inline'} role `named` schemas always carry provenance;
   *   `property` schemas and `inline` ones that declare `properties` carry it or inherit it.
   * @param {boolean} inherited Whether the nearest enclosing element (schema, parameter,
   *   response, request body) carries provenance, which a nested schema may inherit.
   */
  const visitSchema = (schema, pointer, role, inherited) => {
    if (!isObject(schema) || '$ref' in schema) return;
    const needs = role !== 'inline' || isObject(schema.properties);
    const own = schema['x-provenance'] !== undefined;
    if (role === 'named' || own || (needs && !inherited)) expectProvenance(schema, pointer);
    else if (needs) checked += 1; // inherits its parent's provenance
    if ('x-provenance-values' in schema) visitValueProvenance(schema, pointer);
    const passes = inherited || (own && provenanceProblem(schema) === undefined);
    const inline = (/** @type {unknown} */ value, /** @type {string} */ at) =>
      visitSchema(value, at, 'inline', passes);
    eachEntry(schema.properties, `${pointer}/properties`, (value, at) =>
      visitSchema(value, at, 'property', passes),
    );
    eachEntry(schema.$defs, `${pointer}/$defs`, (value, at) =>
      visitSchema(value, at, 'named', false),
    );
    eachEntry(schema.patternProperties, `${pointer}/patternProperties`, inline);
    eachEntry(schema.dependentSchemas, `${pointer}/dependentSchemas`, inline);
    for (const keyword of ['allOf', 'oneOf', 'anyOf', 'prefixItems']) {
      eachItem(schema[keyword], `${pointer}/${keyword}`, inline);
    }
    for (const keyword of ['items', 'additionalProperties', 'not', 'if', 'then', 'else']) {
      inline(schema[keyword], `${pointer}/${keyword}`);
    }
    for (const keyword of ['contains', 'unevaluatedItems', 'unevaluatedProperties']) {
      inline(schema[keyword], `${pointer}/${keyword}`);
    }
  };

  /**
   * @param {unknown} content A `content` map of media types.
   * @param {string} pointer
   */
  const visitContent = (content, pointer) => {
    eachEntry(content, pointer, (mediaType, at) => {
      if (isObject(mediaType)) visitSchema(mediaType.schema, `${at}/schema`, 'inline', true);
    });
  };

  /**
   * A parameter or a header: both carry provenance and hold a schema or a content map.
   *
   * @param {unknown} element
   * @param {string} pointer
   */
  const visitParameterOrHeader = (element, pointer) => {
    if (!isObject(element) || '$ref' in element) return;
    expectProvenance(element, pointer);
    visitSchema(element.schema, `${pointer}/schema`, 'inline', true);
    visitContent(element.content, `${pointer}/content`);
  };

  /**
   * @param {unknown} requestBody
   * @param {string} pointer
   */
  const visitRequestBody = (requestBody, pointer) => {
    if (!isObject(requestBody) || '$ref' in requestBody) return;
    expectProvenance(requestBody, pointer);
    visitContent(requestBody.content, `${pointer}/content`);
  };

  /**
   * @param {unknown} response
   * @param {string} pointer
   */
  const visitResponse = (response, pointer) => {
    if (!isObject(response) || '$ref' in response) return;
    expectProvenance(response, pointer);
    eachEntry(response.headers, `${pointer}/headers`, visitParameterOrHeader);
    visitContent(response.content, `${pointer}/content`);
  };

  /**
   * @param {unknown} pathItem
   * @param {string} pointer
   */
  const visitPathItem = (pathItem, pointer) => {
    if (!isObject(pathItem) || '$ref' in pathItem) return;
    eachItem(pathItem.parameters, `${pointer}/parameters`, visitParameterOrHeader);
    for (const method of methods) {
      const operation = pathItem[method];
      if (!isObject(operation)) continue;
      const at = `${pointer}/${method}`;
      expectProvenance(operation, at);
      eachItem(operation.parameters, `${at}/parameters`, visitParameterOrHeader);
      visitRequestBody(operation.requestBody, `${at}/requestBody`);
      eachEntry(operation.responses, `${at}/responses`, visitResponse);
      eachEntry(operation.callbacks, `${at}/callbacks`, (callback, callbackAt) =>
        eachEntry(callback, callbackAt, visitPathItem),
      );
    }
  };

  if (!isObject(document))
    return { checked, problems: [{ pointer: '', message: 'not a document' }] };
  eachEntry(document.paths, '/paths', visitPathItem);
  eachEntry(document.webhooks, '/webhooks', visitPathItem);
  const components = isObject(document.components) ? document.components : {};
  eachEntry(components.schemas, '/components/schemas', (schema, at) =>
    visitSchema(schema, at, 'named', false),
  );
  eachEntry(components.responses, '/components/responses', visitResponse);
  eachEntry(components.parameters, '/components/parameters', visitParameterOrHeader);
  eachEntry(components.headers, '/components/headers', visitParameterOrHeader);
  eachEntry(components.requestBodies, '/components/requestBodies', visitRequestBody);
  eachEntry(components.securitySchemes, '/components/securitySchemes', (scheme, at) => {
    if (isObject(scheme) && !('$ref' in scheme)) expectProvenance(scheme, at);
  });
  eachEntry(components.pathItems, '/components/pathItems', visitPathItem);
  eachEntry(components.callbacks, '/components/callbacks', (callback, at) =>
    eachEntry(callback, at, visitPathItem),
  );
  return { checked, problems };
}
