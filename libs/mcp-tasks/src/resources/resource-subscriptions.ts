import { Injectable } from '@nestjs/common';

/** Sessions remembered; beyond it the least recently subscribing one is forgotten. */
const MAX_SESSIONS = 10_000;
/** URIs one session may follow at once. */
const MAX_PER_SESSION = 1_000;

/**
 * What each 2025-era session subscribed to (`resources/subscribe`), in this instance only: sessions are sealed tokens
 * nothing stores, and the session's GET stream — where `notifications/resources/updated` goes — is on one instance.
 */
@Injectable()
export class ResourceSubscriptions {
  private readonly bySession = new Map<string, Set<string>>();

  /** False when the session already follows as many URIs as it may. */
  add(session: string, uri: string): boolean {
    const uris = this.bySession.get(session) ?? new Set<string>();
    if (!uris.has(uri) && uris.size >= MAX_PER_SESSION) return false;
    this.bySession.delete(session);
    if (this.bySession.size >= MAX_SESSIONS) this.bySession.delete(this.bySession.keys().next().value!);
    this.bySession.set(session, uris.add(uri));
    return true;
  }

  remove(session: string, uri: string): void {
    const uris = this.bySession.get(session);
    uris?.delete(uri);
    if (uris?.size === 0) this.bySession.delete(session);
  }

  /** Every session following some URI, with those URIs. */
  all(): Array<[session: string, uris: string[]]> {
    return [...this.bySession].map(([session, uris]) => [session, [...uris]]);
  }

  /** The sessions following `uri`. */
  sessionsOf(uri: string): string[] {
    return [...this.bySession].filter(([, uris]) => uris.has(uri)).map(([session]) => session);
  }
}
