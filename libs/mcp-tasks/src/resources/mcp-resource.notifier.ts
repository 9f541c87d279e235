import { Injectable } from '@nestjs/common';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { featureChanged } from '../subscriptions/feature-change.js';
import { LegacyStreams } from '../legacy/legacy-streams.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';

/**
 * Announces that resources changed, on every instance (through the event bus): 2026-07-28 listeners whose
 * `subscriptions/listen` asked for it, and 2025-era sessions on their GET stream (`resources/subscribe` for an
 * update; every session for the list). Inject it where the resources change.
 * @publicApi
 */
@Injectable()
export class McpResourceNotifier {
  constructor(
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly subscriptions: ResourceSubscriptions,
    private readonly streams: LegacyStreams,
  ) {}

  /**
   * `uri`'s contents changed: `notifications/resources/updated` to the listeners that named it. Returns how many
   * 2025-era sessions with a GET stream open on this instance follow it (other instances' are not counted).
   */
  updated(uri: string): number {
    void this.bus.publish(featureChanged('resource', uri)).catch(() => undefined);
    return this.subscriptions.sessionsOf(uri).filter((session) => this.streams.hasSession(session)).length;
  }

  /** The list of resources changed: `notifications/resources/list_changed`. */
  listChanged(): void {
    void this.bus.publish(featureChanged('resources')).catch(() => undefined);
  }
}
