/** A JSON object (not an array, not null). */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The JSON merge patch (RFC 7396) that turns `before` into `after`: objects field by field, a removed
 * field as `null`, anything else (arrays included) whole. What the console sends rather than the whole
 * document, so a change stays small and merges with nothing else.
 */
export function mergePatch(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    const old = before[key];
    if (isObject(old) && isObject(value)) {
      const inner = mergePatch(old, value);
      if (Object.keys(inner).length > 0) patch[key] = inner;
    } else if (!(key in before) || !same(old, value)) {
      patch[key] = value;
    }
  }
  for (const key of Object.keys(before)) if (!(key in after)) patch[key] = null;
  return patch;
}
