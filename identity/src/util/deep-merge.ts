type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Clerk's metadata merge: objects merge recursively, anything else replaces, and `null` deletes the key
 * at any depth. Neither input is modified.
 *
 * Keys are the caller's JSON (`__proto__`, `constructor` are keys like any other there): they are read as
 * own properties only and written as data properties, so `out.__proto__ = …` never swaps the result's
 * prototype and `constructor` never finds Object's.
 */
export function deepMerge(target: Json, patch: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(target)) define(out, key, value);
  for (const [key, value] of Object.entries(patch)) {
    const current = Object.hasOwn(out, key) ? out[key] : undefined;
    if (value === null) delete out[key];
    else if (isObject(value)) define(out, key, deepMerge(isObject(current) ? current : {}, value));
    else define(out, key, value);
  }
  return out;
}

function define(out: Json, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
}
