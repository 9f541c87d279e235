import type { ContentBlock } from './content-block.js';
import { audioContent, imageContent } from './content.helpers.js';

type Signature = [kind: 'image' | 'audio', mimeType: string, matches: (b: Uint8Array) => boolean];

const ascii = (b: Uint8Array, at: number, text: string): boolean =>
  Buffer.from(text, 'latin1').every((c, i) => b[at + i] === c);
const bytes = (b: Uint8Array, ...expected: number[]): boolean => expected.every((x, i) => b[i] === x);

/** The formats a bare `Buffer` is recognised as, by their first bytes. */
const SIGNATURES: Signature[] = [
  ['image', 'image/png', (b) => bytes(b, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
  ['image', 'image/jpeg', (b) => bytes(b, 0xff, 0xd8, 0xff)],
  ['image', 'image/gif', (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')],
  ['image', 'image/webp', (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')],
  ['audio', 'audio/wav', (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE')],
  ['audio', 'audio/mpeg', (b) => ascii(b, 0, 'ID3') || (b[0] === 0xff && [0xfb, 0xf3, 0xf2].includes(b[1]!))],
  ['audio', 'audio/ogg', (b) => ascii(b, 0, 'OggS')],
  ['audio', 'audio/flac', (b) => ascii(b, 0, 'fLaC')],
];

/**
 * The `image` or `audio` block a tool's bare `Buffer` (or `Uint8Array`) stands for, told by its first bytes (PNG,
 * JPEG, GIF, WebP; WAV, MP3, Ogg, FLAC); `undefined` for other bytes, whose type nothing says.
 */
export function binaryContent(data: Uint8Array): ContentBlock | undefined {
  const found = SIGNATURES.find(([, , matches]) => matches(data));
  if (!found) return undefined;
  const [kind, mimeType] = found;
  return kind === 'image' ? imageContent(data, mimeType) : audioContent(data, mimeType);
}
