export type Method = (...args: any[]) => unknown;

/**
 * A function that stands in for `method` in a Nest pipeline, named `name` (what `ec.getHandler().name` reads):
 * `decorate` applies the library's enhancers to it first, then it takes on every metadata entry of `method` (an
 * array, as `@UseGuards` and the like write, is appended to ours, so ours run first). It calls `method`, or
 * `body` instead when given.
 */
export function enhancedStandIn(
  method: Method,
  name: string,
  decorate: (fn: Method) => unknown,
  body?: Method,
): Method {
  const standIn = function (this: unknown, ...args: unknown[]): unknown {
    return (body ?? method).apply(this, args);
  };
  Object.defineProperty(standIn, 'name', { value: name });
  decorate(standIn);
  for (const key of Reflect.getMetadataKeys(method)) {
    const theirs: unknown = Reflect.getMetadata(key, method);
    const ours: unknown = Reflect.getOwnMetadata(key, standIn);
    Reflect.defineMetadata(key, Array.isArray(ours) && Array.isArray(theirs) ? [...ours, ...theirs] : theirs, standIn);
  }
  return standIn;
}
