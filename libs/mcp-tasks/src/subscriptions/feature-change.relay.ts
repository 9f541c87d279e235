import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { LegacyStreams } from '../legacy/legacy-streams.js';
import { ResourceSubscriptions } from '../resources/resource-subscriptions.js';
import { notificationOf } from './feature-change.js';

/**
 * Delivers the changes the app announced (on any instance) to the 2025-era sessions whose GET stream is open here:
 * a list change to every session, a resource update to the sessions that subscribed to its URI.
 */
@Injectable()
export class FeatureChangeRelay implements OnModuleInit, OnApplicationShutdown {
  private unsubscribe?: () => void;

  constructor(
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly subscriptions: ResourceSubscriptions,
    private readonly streams: LegacyStreams,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe((e) => {
      if (e.type !== 'feature-changed') return;
      const message = { jsonrpc: '2.0', ...notificationOf(e) };
      if (e.change !== 'resource') return this.streams.notifyAllSessions(message);
      for (const session of this.subscriptions.sessionsOf(e.uri!)) this.streams.notifySession(session, message);
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
  }
}
