import { Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { McpFeatures } from '../sdk/mcp-features.js';
import { FEATURE_LISTS } from './feature-change.js';

/** The topic followed for its `onActive` alone: nothing is published on it. */
export const FEATURES_TOPIC = 'features';

/**
 * Says when this instance's bus re-joined the broker (its link was lost and is back, the broadcast channel heard
 * again): the resource and prompt changes other instances announced meanwhile were not relayed here, and nothing
 * holds them, so each consumer then sends its listeners what they may have missed. One follow per instance, of a
 * topic nobody publishes on (one more idle LISTEN or SUBSCRIBE on the broker), once the app has resources or prompts
 * or may have some (a gateway). Nothing on the first join (unless the bus was down at startup), nor on a bus that
 * cannot say: one without `follow` or `health` relays in its process only and misses nothing; one whose `follow`
 * takes the topic alone never tells.
 */
@Injectable()
export class FeatureRejoinSignal implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly listeners = new Set<() => void>();
  private unfollow?: () => void;

  constructor(
    @InjectTaskEventBus() private readonly bus: TaskEventBus,
    private readonly features: McpFeatures,
  ) {}

  /** After the explorers offered the features (their `onModuleInit`). */
  onApplicationBootstrap(): void {
    const bus = this.bus;
    if (!bus.follow || bus.follow.length < 2 || !bus.health) return;
    if (!FEATURE_LISTS.some((f) => this.features.mayOffer(f))) return;
    // Down now (the broker is): a stream opened before the first join may miss a change, as after a re-join.
    let joins = bus.health().connected ? 0 : 1;
    this.unfollow = bus.follow(FEATURES_TOPIC, () => {
      if (joins++ > 0) for (const listener of this.listeners) listener();
    });
  }

  /** Calls `listener` after each re-join until the returned function is called. */
  onRejoin(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  onApplicationShutdown(): void {
    this.unfollow?.();
  }
}
