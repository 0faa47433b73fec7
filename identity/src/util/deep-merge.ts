type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Clerk's metadata merge: objects merge recursively, anything else replaces, and `null` deletes the key
 * at any depth. Neither input is modified.
 */
export function deepMerge(target: Json, patch: Json): Json {
  const out: Json = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (isObject(value) && isObject(out[key])) out[key] = deepMerge(out[key] as Json, value);
    else if (isObject(value)) out[key] = deepMerge({}, value);
    else out[key] = value;
  }
  return out;
}
