import { createHash } from 'node:crypto';

/**
 * Owner keys: the text stored with a task that says whose it is — (subject, server, OAuth client, resource). This
 * file alone knows their format; everything else builds, compares and filters keys through it.
 *
 * Written: `v1:` then the JSON array of the four parts (JSON, so no quote, comma, colon or bracket in a part can
 * pass for a boundary). Read as well: the bare JSON array that releases before the tag wrote ("unversioned"), as
 * the same owner — rows an older instance writes during a rolling deploy, or ones no migration rewrote. A later
 * format gets a tag of its own, a migration, and is read here beside these.
 */
const V1 = 'v1:';
/** How every key of either form continues: the JSON array. */
const ARRAY = '[';

/** The parts of an owner key. */
export interface OwnerParts {
  subject: string;
  server: string;
  client: string;
  resource: string;
}

/** The owner key of a task: every part must match for a request to see it. Built per request: keep it cheap. */
export const ownerKey = (subject: string, server: string, client: string, resource: string): string =>
  V1 + JSON.stringify([subject, server, client, resource]);

/** The key as releases before the version tag wrote it (tests and the contract suite play such a release). */
export const unversionedOwnerKey = (subject: string, server: string, client: string, resource: string): string =>
  JSON.stringify([subject, server, client, resource]);

/** A key's parts, if the library wrote it (either form, exactly as written); `undefined` for any other text. */
export function parseOwnerKey(key: string): OwnerParts | undefined {
  const json = key.startsWith(V1 + ARRAY) ? key.slice(V1.length) : key.startsWith(ARRAY) ? key : undefined;
  if (json === undefined) return undefined;
  let parts: unknown;
  try {
    parts = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parts) || parts.length !== 4 || !parts.every((p) => typeof p === 'string')) return undefined;
  // One text per owner and form: whitespace or escapes the library never writes are not its keys.
  if (JSON.stringify(parts) !== json) return undefined;
  const [subject, server, client, resource] = parts as string[];
  return { subject, server, client, resource };
}

/** `v1` is the tagged form of the unversioned key `bare`. No allocation: the ownership guard calls it per request. */
const isTaggedFormOf = (v1: string, bare: string): boolean =>
  bare.startsWith(ARRAY) && v1.length === bare.length + V1.length && v1.startsWith(V1) && v1.endsWith(bare);

/** Two keys name the same owner: the same text, or one the unversioned form of the other. */
export const sameOwner = (a: string, b: string): boolean => a === b || isTaggedFormOf(a, b) || isTaggedFormOf(b, a);

/**
 * Every text a store may hold for this owner's tasks: its key as written now, then the unversioned form (a text
 * the library did not make: itself alone). What a store's exact owner filters match (`owner_key IN (…)`).
 * @publicApi
 */
export function ownerKeyForms(key: string): string[] {
  if (key.startsWith(V1 + ARRAY)) return [key, key.slice(V1.length)];
  return key.startsWith(ARRAY) ? [V1 + key, key] : [key];
}

/**
 * The starts of the stored keys that name `subject` (through any server, client or resource), one per form: a key
 * names it exactly when it starts with one of them. What a store's subject filter matches.
 * @publicApi
 */
export function subjectKeyPrefixes(subject: string): string[] {
  const bare = `${ARRAY}${JSON.stringify(subject)},`;
  return [V1 + bare, bare];
}

/** The key names `subject`. */
export const ownerKeyHasSubject = (key: string, subject: string): boolean =>
  subjectKeyPrefixes(subject).some((prefix) => key.startsWith(prefix));

/**
 * A text every key naming `server` contains, in either form (a key naming another server may contain it too, where
 * a later part reads the same: confirm with `ownerKeyOnServer`). What a store's server filter narrows rows by.
 * @publicApi
 */
export const serverKeyNeedle = (server: string): string => `,${JSON.stringify(server)},`;

/**
 * The key names `server` (a text the library did not make names none): the test `adoptLapsedRuns` applies.
 * @publicApi
 */
export const ownerKeyOnServer = (key: string, server: string): boolean => parseOwnerKey(key)?.server === server;

/**
 * A short digest of the owner a key names — the same for each form of it, so a 2025-era session or list cursor
 * sealed before an upgrade stays good after it — that binds a token to its owner without saying who they are.
 */
export const ownerDigest = (key: string): string =>
  createHash('sha256')
    .update(key.startsWith(V1 + ARRAY) ? key.slice(V1.length) : key)
    .digest('base64url')
    .slice(0, 22);
