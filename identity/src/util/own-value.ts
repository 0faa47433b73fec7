/**
 * `map[key]` for a key that comes from outside (a request, a setting): only the map's own entries, never
 * what every object inherits (`constructor`, `__proto__`, `toString`…), which a plain `map[key]` finds.
 */
export function ownValue<T>(map: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}
