// Bounds a JSON text's shape before it is parsed: how many values it holds and how deep they nest.

/** The most JSON values (members and items, at any depth) a request body may hold. */
export const MAX_JSON_VALUES = 1024;
/** The deepest a request body's objects and arrays may nest. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a JSON text holds more than `MAX_JSON_VALUES` values or nests deeper than
 * `MAX_JSON_DEPTH`, found in one pass over its characters without building anything: a body of
 * thousands of members costs milliseconds to parse (V8 builds a dictionary object), and no
 * operation takes more than a few dozen values. Returns the problem in words, or undefined.
 * Malformed JSON passes (the parser refuses it next).
 *
 * @example
 * jsonShapeProblem('{"amount":1000}'); // undefined
 * jsonShapeProblem(`[${'1,'.repeat(5000)}1]`); // 'the request body must hold at most 1024 JSON values …'
 */
export function jsonShapeProblem(text: string): string | undefined {
  let values = 0;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c /* \ */) index++;
      else if (code === 0x22 /* " */) inString = false;
      continue;
    }
    switch (code) {
      case 0x22: // "
        inString = true;
        break;
      case 0x7b: // {
      case 0x5b: // [
        if (++depth > MAX_JSON_DEPTH) return limits();
        values++;
        break;
      case 0x7d: // }
      case 0x5d: // ]
        depth--;
        break;
      case 0x2c: // , another member or item
      case 0x3a: // : a member's value
        if (++values > MAX_JSON_VALUES) return limits();
        break;
    }
  }
  return undefined;
}

function limits(): string {
  return `the request body must hold at most ${MAX_JSON_VALUES} JSON values (members and items) nested at most ${MAX_JSON_DEPTH} deep; no operation takes more than a few dozen`;
}
