import { ownerKey } from '../owner/owner-key.js';

/**
 * Owner keys made lately, by subject: a caller that sends a new token on every request gets the same key
 * without building it again. An entry is used only when server, client and resource all match.
 */
export class OwnerKeyMemo {
  private recent = new Map<string, { server: string; client: string; resource: string; key: string }>();

  constructor(private readonly limit = 1_000) {}

  keyOf(subject: string, server: string, client: string, resource: string): string {
    const hit = this.recent.get(subject);
    if (hit && hit.client === client && hit.resource === resource && hit.server === server) return hit.key;
    const key = ownerKey(subject, server, client, resource);
    // Dropped whole when full: cheaper than tracking age, and a miss only costs one key.
    if (this.recent.size >= this.limit) this.recent = new Map();
    this.recent.set(subject, { server, client, resource, key });
    return key;
  }
}
