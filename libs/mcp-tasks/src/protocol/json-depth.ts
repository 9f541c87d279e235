/**
 * How deep a tool's arguments may nest. Recursive code (transformers, digests, the SDK's schemas) would overflow
 * the stack on absurd nesting, so deeper input is refused before any of it runs.
 */
export const MAX_DEPTH = 64;

/** Whether `value` nests objects/arrays deeper than `max` levels (iterative: safe on any input). */
export function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    if (d >= max) return true;
    for (const child of Object.values(v)) if (child && typeof child === 'object') stack.push([child, d + 1]);
  }
  return false;
}
