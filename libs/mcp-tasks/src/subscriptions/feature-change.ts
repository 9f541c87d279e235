import type { TaskEvent } from '../events/task-event-bus.interface.js';

/** A change the app announced, as the bus carries it. */
export type FeatureChanged = Extract<TaskEvent, { type: 'feature-changed' }>;

/** The notification a change is, in both eras (2026-07-28 listeners add their subscription id to `_meta`). */
export function notificationOf(e: FeatureChanged): { method: string; params: Record<string, unknown> } {
  if (e.change === 'resource') return { method: 'notifications/resources/updated', params: { uri: e.uri } };
  return { method: `notifications/${e.change}/list_changed`, params: {} };
}
