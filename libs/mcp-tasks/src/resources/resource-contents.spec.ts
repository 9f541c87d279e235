import { describe, expect, it } from '@jest/globals';
import { contentsOf } from './resource-contents.js';

describe('contentsOf', () => {
  it('makes a string text, with the declared MIME type or text/plain', () => {
    expect(contentsOf('hi', 'x://a')).toEqual([{ uri: 'x://a', mimeType: 'text/plain', text: 'hi' }]);
    expect(contentsOf('# hi', 'x://a', 'text/markdown')).toEqual([
      { uri: 'x://a', mimeType: 'text/markdown', text: '# hi' },
    ]);
  });

  it('makes a Buffer or a Uint8Array view a base64 blob of exactly its bytes', () => {
    expect(contentsOf(Buffer.from([1, 2, 3]), 'x://b')).toEqual([
      { uri: 'x://b', mimeType: 'application/octet-stream', blob: 'AQID' },
    ]);
    const view = new Uint8Array([9, 1, 2, 9]).subarray(1, 3);
    expect(contentsOf(view, 'x://b', 'image/png')).toEqual([{ uri: 'x://b', mimeType: 'image/png', blob: 'AQI=' }]);
  });

  it('sends any other JSON value as application/json text', () => {
    expect(contentsOf({ a: [1] }, 'x://j')).toEqual([
      { uri: 'x://j', mimeType: 'application/json', text: '{"a":[1]}' },
    ]);
    expect(contentsOf([], 'x://j')).toEqual([{ uri: 'x://j', mimeType: 'application/json', text: '[]' }]);
  });

  it('takes contents as given, adding the URI and MIME type they lack', () => {
    expect(contentsOf({ contents: [{ text: 'a' }, { uri: 'x://other', blob: 'AA==' }] }, 'x://c', 'text/csv')).toEqual([
      { uri: 'x://c', mimeType: 'text/csv', text: 'a' },
      { uri: 'x://other', mimeType: 'text/csv', blob: 'AA==' },
    ]);
    expect(contentsOf([{ text: 'a', mimeType: 'text/html' }], 'x://c')).toEqual([
      { uri: 'x://c', mimeType: 'text/html', text: 'a' },
    ]);
  });

  it('refuses a method that returned nothing', () => {
    expect(() => contentsOf(undefined, 'x://n')).toThrow('returned nothing');
  });
});
