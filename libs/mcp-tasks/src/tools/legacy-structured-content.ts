/**
 * A tool result as the 2025-11-25 wire carries it. That revision allows only an object as `structuredContent`:
 * any other JSON value (an array, mostly) goes as `{ result: value }` — the projection the MCP SDKs apply (SEP-2106),
 * matching the `outputSchema` the SDK's 2025 `tools/list` shows for a non-object schema.
 */
export function forLegacyWire<T extends { structuredContent?: unknown }>(result: T): T {
  const value = result.structuredContent;
  if (value === undefined || (value !== null && typeof value === 'object' && !Array.isArray(value))) return result;
  return { ...result, structuredContent: { result: value } };
}
