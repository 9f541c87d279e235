/**
 * A content block of a tool result (`text`, `image`, `audio`, `resource_link`, `resource`), per the MCP schema.
 * @publicApi
 */
export type ContentBlock = Record<string, unknown> & { type: string };

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';

type Rule = [needs: string, holds: (b: Record<string, unknown>) => boolean];

/** The string fields each block type requires (the optional ones are checked only when present). */
const REQUIRED: Record<string, Rule> = {
  text: ['text', (b) => isString(b.text)],
  image: ['data and mimeType', (b) => isString(b.data) && isString(b.mimeType)],
  audio: ['data and mimeType', (b) => isString(b.data) && isString(b.mimeType)],
  resource_link: ['uri and name', (b) => isString(b.uri) && isString(b.name)],
  resource: [
    'resource.uri and resource.text or resource.blob',
    (b) => isObject(b.resource) && isString(b.resource.uri) && (isString(b.resource.text) || isString(b.resource.blob)),
  ],
};

/**
 * Why `value` is not a valid content block, or `undefined` when it is one: an object whose `type` is one of the five
 * content types, with that type's required fields (and `annotations` / `_meta`, when present, objects).
 */
export function contentBlockProblem(value: unknown): string | undefined {
  if (!isObject(value)) return 'not an object';
  const rule = isString(value.type) && Object.hasOwn(REQUIRED, value.type) ? REQUIRED[value.type] : undefined;
  if (!rule) return `type ${String(JSON.stringify(value.type))} is not text, image, audio, resource_link or resource`;
  if (!rule[1](value)) return `a ${value.type as string} block needs ${rule[0]} (strings)`;
  for (const key of ['annotations', '_meta'] as const)
    if (value[key] !== undefined && !isObject(value[key])) return `its ${key} is not an object`;
  return undefined;
}

export const isContentBlock = (value: unknown): value is ContentBlock => contentBlockProblem(value) === undefined;
