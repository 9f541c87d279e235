import { Injectable } from '@nestjs/common';
import { LegacyStreams } from '../legacy/legacy-streams.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';

/**
 * Announces that a resource's contents changed: each 2025-era session subscribed to its URI
 * (`resources/subscribe`) gets `notifications/resources/updated` on its GET stream. Only sessions whose stream is
 * open on this instance hear it (subscriptions are kept per instance, not relayed across instances). Inject it
 * where the resource changes.
 * @publicApi
 */
@Injectable()
export class McpResourceNotifier {
  constructor(
    private readonly subscriptions: ResourceSubscriptions,
    private readonly streams: LegacyStreams,
  ) {}

  /** Tells the sessions following `uri` that it changed; returns how many it reached. */
  updated(uri: string): number {
    const message = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
    return this.subscriptions.sessionsOf(uri).filter((session) => this.streams.notifySession(session, message)).length;
  }
}
