/**
 * One item of a `resources/read` result's `contents`.
 * @publicApi
 */
export type ResourceContents = { uri: string; mimeType?: string } & ({ text: string } | { blob: string });

/**
 * A resource method's value as the `contents` of a `resources/read` result for `uri`: a string is text, a `Buffer`
 * or `Uint8Array` a base64 blob, `{ contents }` or an array of contents objects are taken as they are (each gets
 * the URI and MIME type when it lacks them), and any other JSON value is `application/json` text.
 */
export function contentsOf(value: unknown, uri: string, mimeType?: string): ResourceContents[] {
  if (typeof value === 'string') return [{ uri, mimeType: mimeType ?? 'text/plain', text: value }];
  if (value instanceof Uint8Array) {
    const blob = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
    return [{ uri, mimeType: mimeType ?? 'application/octet-stream', blob }];
  }
  const listed = isContentsResult(value) ? value.contents : isContentsArray(value) ? value : undefined;
  if (listed) return listed.map((c) => ({ uri, ...(mimeType ? { mimeType } : {}), ...c }) as ResourceContents);
  if (value === undefined) throw new TypeError(`the resource method for ${uri} returned nothing`);
  return [{ uri, mimeType: mimeType ?? 'application/json', text: JSON.stringify(value) }];
}

const isContents = (c: unknown): c is Partial<ResourceContents> =>
  !!c && typeof c === 'object' && (typeof (c as any).text === 'string' || typeof (c as any).blob === 'string');

const isContentsArray = (v: unknown): v is Array<Partial<ResourceContents>> =>
  Array.isArray(v) && v.length > 0 && v.every(isContents);

const isContentsResult = (v: unknown): v is { contents: Array<Partial<ResourceContents>> } =>
  !!v && typeof v === 'object' && !Array.isArray(v) && isContentsArray((v as { contents?: unknown }).contents);
