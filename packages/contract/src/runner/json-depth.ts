// How deep a parsed JSON value nests, measured without recursion, so a hostile answer cannot overflow the stack.

/** The deepest nesting a target's JSON may have: the spec's deepest body (a list of payments) needs 5. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `value` nests deeper than `limit` arrays and objects; walks with an explicit stack and
 * stops at the first branch past the limit.
 *
 * @example
 * nestsDeeperThan(JSON.parse('[[[1]]]'), 2); // true
 * nestsDeeperThan({ data: [{ id: 'pay_1' }] }, 64); // false
 */
export function nestsDeeperThan(value: unknown, limit: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const inner of Array.isArray(current) ? current : Object.values(current)) {
      if (inner !== null && typeof inner === 'object') stack.push([inner, depth + 1]);
    }
  }
  return false;
}
