import { ownerKey, unversionedOwnerKey } from '../../owner/owner-key.js';

/**
 * Owner keys for the checks of a server filter (`adoptLapsedRuns`, `adoptLapsedMirrors`): `own`, both forms of a
 * key naming `server`; `others`, keys naming `other`, among them ones whose text reads alike — `server` as a later
 * part, inside the subject's text, in another case.
 */
export function serverOwners(server: string, other: string): { own: string[]; others: string[] } {
  const key = (subject: string, name: string, client = 'app') => ownerKey(subject, name, client, 'https://r');
  return {
    own: [key('alice', server), unversionedOwnerKey('alice', server, 'app', 'https://r')],
    others: [
      key('alice', other),
      key('alice', other, server),
      key(`x",${JSON.stringify(server)},`, other),
      key('alice', server.toUpperCase()),
    ],
  };
}
