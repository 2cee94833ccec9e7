// Small statistics for benchmark rounds: median and ratios rounded for the report.

/**
 * The median of some numbers (the mean of the middle two for an even count); NaN when empty.
 *
 * @example
 * median([3, 1, 2]); // 2
 * median([4, 1, 3, 2]); // 2.5
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * A ratio `numerator / denominator`, or null when the denominator is missing or zero.
 *
 * @example
 * ratio(50, 100); // 0.5
 * ratio(1, undefined); // null
 */
export function ratio(
  numerator: number | undefined,
  denominator: number | undefined,
): number | null {
  if (numerator === undefined || denominator === undefined || denominator === 0) return null;
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator)) return null;
  return numerator / denominator;
}

/**
 * Rounds to a number of significant digits for display.
 *
 * @example
 * round(1234.567, 3); // 1230
 * round(0.012345, 2); // 0.012
 */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value) || value === 0) return value;
  return Number(value.toPrecision(digits));
}
