import type { ContentBlock } from './content-block.js';

/**
 * Bytes, or a string already base64-encoded.
 * @publicApi
 */
export type BinaryData = Uint8Array | string;

const base64 = (data: BinaryData): string =>
  typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');

/**
 * An `image` content block of `data` (e.g. `imageContent(png, 'image/png')`), for a tool to return.
 * @publicApi
 */
export const imageContent = (data: BinaryData, mimeType: string): ContentBlock => ({
  type: 'image',
  data: base64(data),
  mimeType,
});

/**
 * An `audio` content block of `data` (e.g. `audioContent(wav, 'audio/wav')`).
 * @publicApi
 */
export const audioContent = (data: BinaryData, mimeType: string): ContentBlock => ({
  type: 'audio',
  data: base64(data),
  mimeType,
});

/**
 * An embedded `resource` content block: `text` contents for a string, `blob` contents (base64) for bytes
 * (e.g. `resourceContent('file:///report.pdf', pdf, 'application/pdf')`).
 * @publicApi
 */
export function resourceContent(uri: string, contents: string | Uint8Array, mimeType?: string): ContentBlock {
  const body = typeof contents === 'string' ? { text: contents } : { blob: base64(contents) };
  return { type: 'resource', resource: { uri, ...(mimeType ? { mimeType } : {}), ...body } };
}
