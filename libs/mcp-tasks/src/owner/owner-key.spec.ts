import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  ownerDigest,
  ownerKey,
  ownerKeyForms,
  ownerKeyHasSubject,
  ownerKeyOnServer,
  parseOwnerKey,
  sameOwner,
  subjectKeyPrefixes,
  unversionedOwnerKey,
  type OwnerParts,
} from './owner-key.js';

type Tuple = [string, string, string, string];
const parts = ([subject, server, client, resource]: Tuple): OwnerParts => ({ subject, server, client, resource });

/** Text an attacker would try: the tag, quotes, escapes, separators, brackets, whole keys. */
const TOKENS = [
  'v1:',
  'v2:',
  '"',
  '\\',
  '\\"',
  ',',
  ':',
  '[',
  ']',
  '{"v":1}',
  '","',
  '\u0000',
  '\u2028',
  'é',
  '𝄞',
  ' ',
];
const crafted = fc.string({ unit: fc.constantFrom(...TOKENS), maxLength: 8 });
const keyText = fc
  .tuple(fc.string(), fc.string(), fc.string(), fc.string())
  .chain((t) => fc.constantFrom(ownerKey(...t), unversionedOwnerKey(...t)));
const part = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), crafted, keyText, fc.constantFrom('', 'v1:'));
const tuple = fc.tuple(part, part, part, part);
/** Two tuples that differ, often in one part only. */
const differing = fc
  .tuple(tuple, tuple, fc.integer({ min: 0, max: 4 }))
  .map(([a, b, i]): [Tuple, Tuple] => (i < 4 ? [a, a.map((p, j) => (j === i ? b[i] : p)) as Tuple] : [a, b]))
  .filter(([a, b]) => a.some((p, i) => p !== b[i]));
/** Both forms of each tuple's key. */
const forms = (t: Tuple) => [ownerKey(...t), unversionedOwnerKey(...t)];
const RUNS = { numRuns: 2_000 };

describe('owner keys', () => {
  it('are written tagged with their version, the parts as a JSON array', () => {
    expect(ownerKey('ana', 's', 'cli', 'https://a/mcp')).toBe('v1:["ana","s","cli","https://a/mcp"]');
  });

  it('parse back to their parts, in either form (property)', () => {
    fc.assert(
      fc.property(tuple, (t) => {
        expect(parseOwnerKey(ownerKey(...t))).toEqual(parts(t));
        expect(parseOwnerKey(unversionedOwnerKey(...t))).toEqual(parts(t));
      }),
      RUNS,
    );
  });

  it('parse only what the library writes: any other text is no key (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          crafted,
          keyText.map((k) => ` ${k}`),
        ),
        (text) => {
          const p = parseOwnerKey(text);
          if (p) expect(forms([p.subject, p.server, p.client, p.resource])).toContain(text);
        },
      ),
      RUNS,
    );
    for (const text of [
      '',
      'alice',
      'v1:',
      'v1:["a","b","c"]',
      'v1:["a","b","c","d","e"]',
      'v1:["a","b","c",4]',
      'v1:[ "a","b","c","d"]',
      'v1:["\\u0061","b","c","d"]',
      'v1:["a","b","c","d"] ',
      'v2:["a","b","c","d"]',
      'v1:v1:["a","b","c","d"]',
      '{"v":1,"k":["a","b","c","d"]}',
      '["a","b","c","d"',
    ])
      expect(parseOwnerKey(text)).toBeUndefined();
  });

  it('of owners that differ in any part never match, in any form, nor share a digest (property)', () => {
    fc.assert(
      fc.property(differing, ([a, b]) => {
        for (const x of forms(a))
          for (const y of forms(b)) {
            expect(x).not.toBe(y);
            expect(sameOwner(x, y)).toBe(false);
            expect(ownerKeyForms(x)).not.toContain(y);
            expect(ownerDigest(x)).not.toBe(ownerDigest(y));
          }
      }),
      RUNS,
    );
  });

  it('of one owner match in every form, with one digest (property)', () => {
    fc.assert(
      fc.property(tuple, (t) => {
        const [tagged, bare] = forms(t);
        for (const [x, y] of [
          [tagged, bare],
          [bare, tagged],
          [tagged, tagged],
          [bare, bare],
        ])
          expect(sameOwner(x, y)).toBe(true);
        expect(ownerKeyForms(tagged)).toEqual([tagged, bare]);
        expect(ownerKeyForms(bare)).toEqual([tagged, bare]);
        expect(ownerDigest(tagged)).toBe(ownerDigest(bare));
      }),
      RUNS,
    );
  });

  it('match exactly when one is among the forms of the other, for any texts (property)', () => {
    const text = fc.oneof(
      fc.string(),
      crafted,
      keyText,
      keyText.map((k) => `v1:${k}`),
    );
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(sameOwner(a, b)).toBe(ownerKeyForms(a).includes(b));
        expect(sameOwner(a, b)).toBe(sameOwner(b, a));
      }),
      RUNS,
    );
    // Text the library did not write is matched as it is, never through a form it does not have.
    expect(ownerKeyForms('alice')).toEqual(['alice']);
    expect(sameOwner('v1:alice', 'alice')).toBe(false);
  });

  it('name a subject exactly: no other subject, however crafted, shares a prefix (property)', () => {
    fc.assert(
      fc.property(tuple, part, (t, other) => {
        for (const key of forms(t)) {
          expect(ownerKeyHasSubject(key, t[0])).toBe(true);
          expect(ownerKeyHasSubject(key, other)).toBe(other === t[0]);
          expect(subjectKeyPrefixes(t[0]).some((p) => key.startsWith(p))).toBe(true);
        }
      }),
      RUNS,
    );
    // A subject that is itself a key, or the start of one, names only itself.
    const inner = ownerKey('a', 's', 'c', 'r');
    expect(ownerKeyHasSubject(ownerKey(inner, 's', 'c', 'r'), 'a')).toBe(false);
    expect(ownerKeyHasSubject(ownerKey('a', 's', 'c', 'r'), inner)).toBe(false);
    expect(ownerKeyHasSubject(ownerKey('a","s', 'c', 'r', ''), 'a')).toBe(false);
  });

  it('name a server exactly; text the library did not write names none (property)', () => {
    fc.assert(
      fc.property(tuple, part, (t, other) => {
        for (const key of forms(t)) expect(ownerKeyOnServer(key, other)).toBe(other === t[1]);
      }),
      RUNS,
    );
    expect(ownerKeyOnServer('alice', 'alice')).toBe(false);
    expect(ownerKeyOnServer('v1:["a","s","c"]', 's')).toBe(false);
  });
});
