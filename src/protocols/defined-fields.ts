/**
 * `object` without its `undefined` fields (a plain loop: this runs on every request, and
 * `Object.fromEntries(Object.entries(…).filter(…))` allocates an array per field).
 */
export function definedFields<T extends object>(object: T): Partial<T> {
  const kept: Record<string, unknown> = {};
  for (const key in object) {
    const value = object[key];
    if (value !== undefined) kept[key] = value;
  }
  return kept as Partial<T>;
}
