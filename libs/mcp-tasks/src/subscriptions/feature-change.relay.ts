import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { LegacyStreams } from '../legacy/legacy-streams.js';
import { ResourceSubscriptions } from '../resources/resource-subscriptions.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { FEATURE_LISTS, featureChanged, notificationOf, type FeatureChanged } from './feature-change.js';
import { FeatureRejoinSignal } from './feature-rejoin.signal.js';

/**
 * Delivers the changes the app announced (on any instance) to the 2025-era sessions whose GET stream is open here:
 * a list change to every session, a resource update to the sessions that subscribed to its URI. After the bus
 * re-joined (what was announced meanwhile was lost), every list the app has changed and every URI a session here
 * follows was updated, for all we know: a needless notification costs a re-read, a lost one a stale client.
 */
@Injectable()
export class FeatureChangeRelay implements OnModuleInit, OnApplicationShutdown {
  private readonly stops: Array<() => void> = [];

  constructor(
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly subscriptions: ResourceSubscriptions,
    private readonly streams: LegacyStreams,
    private readonly features: McpFeatures,
    private readonly rejoins: FeatureRejoinSignal,
  ) {}

  onModuleInit(): void {
    this.stops.push(
      this.bus.subscribe((e) => {
        if (e.type === 'feature-changed') this.deliver(e);
      }),
      this.rejoins.onRejoin(() => this.rejoined()),
    );
  }

  onApplicationShutdown(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  private deliver(e: FeatureChanged): void {
    const message = { jsonrpc: '2.0', ...notificationOf(e) };
    if (e.change !== 'resource') return this.streams.notifyAllSessions(message);
    for (const session of this.subscriptions.sessionsOf(e.uri!)) this.streams.notifySession(session, message);
  }

  private rejoined(): void {
    for (const list of FEATURE_LISTS) if (this.features.has(list)) this.deliver(featureChanged(list));
    for (const [session, uris] of this.subscriptions.all()) {
      if (!this.streams.hasSession(session)) continue;
      for (const uri of uris)
        this.streams.notifySession(session, { jsonrpc: '2.0', ...notificationOf(featureChanged('resource', uri)) });
    }
  }
}
