import type { TaskEvent, TaskEventBus } from './task-event-bus.interface.js';

/** The topic a 2025-era session's stream follows: status changes of the tasks that session created. */
export const sessionTopic = (session: string): string => `session:${session}`;

/**
 * The topics a bus relays `event` under (see `TaskEventBus.follow`): the id of its task (or, for a question's answer,
 * of the run that asked), and the session that created the task when it names one. A feature change has none: it
 * goes to every instance.
 * @publicApi
 */
export function taskEventTopics(event: TaskEvent): string[] {
  if (event.type === 'feature-changed') return [];
  if (event.type === 'status-changed' && event.session !== undefined)
    return [event.taskId, sessionTopic(event.session)];
  return [event.taskId];
}

/**
 * Follows `topic` on a bus that targets its relays; a no-op (every event arrives anyway) on one that does not.
 * `onActive`: see `TaskEventBus.follow` (not called by a bus without `follow`, nor by one that does not take it).
 */
export const followTopic = (bus: TaskEventBus, topic: string, onActive?: () => void): (() => void) =>
  bus.follow?.(topic, onActive) ?? (() => {});

/**
 * Follows `topic` and calls `then` once the follow is in effect (an event another instance publishes from then on is
 * relayed here) — and again after each re-join, as `TaskEventBus.follow` — or once, on the next microtask, where the
 * bus cannot say (no `follow`, or one taking the topic alone, as the contract tells them apart); never during the
 * call, never after the unfollow.
 */
export function followThen(bus: TaskEventBus, topic: string, then: () => void): () => void {
  if (bus.follow && bus.follow.length >= 2) return bus.follow(topic, then);
  let followed = true;
  const unfollow = followTopic(bus, topic);
  queueMicrotask(() => followed && then());
  return () => {
    followed = false;
    unfollow();
  };
}
