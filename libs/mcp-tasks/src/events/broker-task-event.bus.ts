import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { LocalTaskEventBus } from './local-task-event.bus.js';
import type { TaskEvent, TaskEventBus, TaskEventBusHealth } from './task-event-bus.interface.js';
import { taskEventTopics } from './task-event.topics.js';
import { readWireEvent, type WireEvent } from './task-event.wire.js';

/** How many recent (sender, count) pairs a bus remembers to drop the second copy of an event sent under two topics. */
const RECENT = 4_096;

/** A live follow's `onActive`, and whether a round trip that will call it is under way. */
interface Follower {
  onActive: () => void;
  due: boolean;
}

/** How a round trip went: in effect, failed, or done on a connection since replaced (its joins may be gone). */
type Joined = 'ok' | 'failed' | 'stale';

/**
 * What the Redis and NATS buses share: events reach this instance's subscribers at once and go out under each of
 * their topics (`taskEventTopics`), or on the broadcast channel when they have none; a topic's channel is joined on
 * its first `follow` and left on its last unfollow; echoes and second copies are dropped. A transport says how a
 * channel is named, joined, left and sent to.
 */
export abstract class BrokerTaskEventBus implements TaskEventBus {
  protected readonly logger = new Logger('McpTasks');
  private readonly local = new LocalTaskEventBus();
  private readonly instance = randomUUID();
  private readonly follows = new Map<string, number>();
  private readonly recent = new Set<string>();
  private seq = 0;
  /** The live follows that take `onActive`: told once in effect, and again after each re-join. */
  private readonly followers = new Set<Follower>();
  /** Counts the subscribing connection's (re)joins: a round trip sent before the last one says nothing of it. */
  private joins = 0;
  /** Follows waiting for the next round trip to be in effect (one round trip per turn of the event loop). */
  private activating?: Array<(joined: Joined) => void>;
  /** Whether the last relay failed (its warning already logged). */
  private failing = false;

  /** The channel (Redis) or subject (NATS) of `topic`, and the one every instance hears. */
  protected abstract channelOf(topic: string): string;
  protected abstract readonly broadcast: string;
  /** Starts hearing `channel` (now, or once connected); idempotent per channel. */
  protected abstract join(channel: string): void;
  protected abstract leave(channel: string): void;
  /**
   * Sends `text`; with `confirm`, resolves only once the broker took it (a question's answer). Rejects when it
   * cannot now (not connected, refused).
   */
  protected abstract send(channel: string, text: string, confirm: boolean): Promise<void>;
  /**
   * A round trip on the subscribing connection, sent after every `join` asked for so far (once connected): the
   * broker has taken those subscriptions when it resolves.
   */
  protected abstract roundTrip(): Promise<void>;
  abstract health(): TaskEventBusHealth;

  /** Every channel this instance hears now: the transport joins them again after a reconnect. */
  protected channels(): string[] {
    return [this.broadcast, ...[...this.follows.keys()].map((t) => this.channelOf(t))];
  }

  /**
   * Relays `event`. Events about tasks go out without waiting (a lost one only delays: runs re-read the store);
   * a question's answer, which nothing else carries, resolves once the broker took it and rejects when it cannot.
   */
  async publish(event: TaskEvent): Promise<void> {
    await this.local.publish(event);
    const text = JSON.stringify({ i: this.instance, n: this.seq++, e: event } satisfies WireEvent);
    const topics = taskEventTopics(event);
    const channels = topics.length ? topics.map((t) => this.channelOf(t)) : [this.broadcast];
    const confirm = event.type === 'question-answered';
    const sent = Promise.all(channels.map((c) => this.send(c, text, confirm)));
    if (confirm) {
      await sent;
      return;
    }
    sent.then(
      () => (this.failing = false),
      (err: Error) => {
        // Once per outage, not once per event: while the broker is down every event fails alike.
        if (this.failing) return;
        this.failing = true;
        this.logger.warn(
          `task events not relayed (${err.message}); other instances will see them on their next store read`,
        );
      },
    );
  }

  subscribe(handler: (event: TaskEvent) => void): () => void {
    return this.local.subscribe(handler);
  }

  /**
   * `onActive`: after a round trip on the subscribing connection that followed the join, and again after each
   * re-join of a new connection (`TaskEventBus.follow`).
   */
  follow(topic: string, onActive?: () => void): () => void {
    const count = this.follows.get(topic) ?? 0;
    this.follows.set(topic, count + 1);
    if (count === 0) this.join(this.channelOf(topic));
    let followed = true;
    const follower = onActive && { onActive, due: false };
    if (follower) {
      this.followers.add(follower);
      this.activate(follower);
    }
    return () => {
      if (!followed) return;
      followed = false;
      if (follower) this.followers.delete(follower);
      const left = (this.follows.get(topic) ?? 1) - 1;
      if (left > 0) return void this.follows.set(topic, left);
      this.follows.delete(topic);
      this.leave(this.channelOf(topic));
    };
  }

  /**
   * The subscribing connection is new (a reconnect) and joins every channel again: each live follow is told once
   * that is in effect, since events published while the link was down were not relayed here.
   */
  protected rejoined(): void {
    this.joins++;
    for (const follower of this.followers) this.activate(follower);
  }

  /** Tells `follower` once the joins asked for so far are in effect (not twice for one round trip). */
  private activate(follower: Follower): void {
    if (follower.due) return;
    follower.due = true;
    this.whenJoined((joined) => {
      follower.due = false;
      if (!this.followers.has(follower)) return;
      if (joined === 'ok') follower.onActive();
      // A re-join came meanwhile (and passed over this follow, then due): its round trip tells it.
      else if (joined === 'stale') this.activate(follower);
      // 'failed': the next re-join tells it; until then the follower's poll catches up.
    });
  }

  /** Calls `then` once the joins asked for so far are in effect, or says why not. */
  private whenJoined(then: (joined: Joined) => void): void {
    if (this.activating) return void this.activating.push(then);
    const due = (this.activating = [then]);
    setImmediate(() => {
      this.activating = undefined;
      const joins = this.joins;
      const settle = (ok: boolean) => {
        const joined = this.joins !== joins ? 'stale' : ok ? 'ok' : 'failed';
        due.forEach((f) => f(joined));
      };
      this.roundTrip().then(
        () => settle(true),
        () => settle(false),
      );
    });
  }

  /** How many subscriptions are live in this process (for diagnostics and tests). */
  get subscriberCount(): number {
    return this.local.subscriberCount;
  }

  /** A message heard on any channel: our own echoes and second copies are dropped. */
  protected receive(text: string): void {
    const wire = readWireEvent(text);
    if (!wire || wire.i === this.instance) return;
    const key = `${wire.i}:${wire.n}`;
    if (this.recent.has(key)) return;
    this.recent.add(key);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.values().next().value as string);
    void this.local.publish(wire.e);
  }
}
