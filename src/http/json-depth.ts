import { ApiError } from './errors.js';

/** Arrays and objects nested deeper than this in a JSON body are refused (400 VALIDATION_ERROR). */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `value` nests arrays and objects more than `max` levels deep (`[]` is one level). An
 * explicit stack rather than recursion: a body of 16 KiB can nest 8,000 levels, more than the call
 * stack of anything that walks it recursively (which would then fail with a 500).
 */
export function nestsDeeperThan(value: unknown, max: number = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const values: object[] = [value];
  const depths: number[] = [1];
  while (values.length > 0) {
    const node = values.pop() as object;
    const depth = depths.pop() as number;
    if (depth > max) return true;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** The refusal of a body nested deeper than MAX_JSON_DEPTH. */
export const tooDeep = (): ApiError =>
  new ApiError(
    'VALIDATION_ERROR',
    `The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`,
    [{ field: 'body', message: `JSON nesting deeper than ${MAX_JSON_DEPTH} levels is refused` }],
  );
