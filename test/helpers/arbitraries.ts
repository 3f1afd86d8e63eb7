import fc from 'fast-check';

/** Usually a well-typed value, sometimes any JSON value (the wrong type for the field): 1 draw in `goodWeight + 1`. */
export const mostly = <T>(good: fc.Arbitrary<T>, goodWeight = 15) =>
  fc.oneof({ arbitrary: good, weight: goodWeight }, { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 1 });

/** Present once in `oneIn` draws, otherwise `undefined`. */
export const maybe = <T>(value: fc.Arbitrary<T>, oneIn = 2) =>
  fc.oneof({ arbitrary: fc.constant(undefined), weight: oneIn - 1 }, { arbitrary: value, weight: 1 });

/** The record without its `undefined` fields, as a JSON body would have it. */
export const withoutUndefined = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
