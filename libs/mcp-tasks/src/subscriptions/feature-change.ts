import type { FeatureChange, TaskEvent } from '../events/task-event-bus.interface.js';

/** A change the app announced, as the bus carries it. */
export type FeatureChanged = Extract<TaskEvent, { type: 'feature-changed' }>;

/** The features whose list changes are announced (each a capability, and a `change`). */
export const FEATURE_LISTS = ['resources', 'prompts'] as const;

/** A change as the notifiers publish it (`uri` for a resource's update). */
export const featureChanged = (change: FeatureChange, uri?: string): FeatureChanged =>
  uri === undefined
    ? { type: 'feature-changed', taskId: '', change }
    : { type: 'feature-changed', taskId: '', change, uri };

/** The notification a change is, in both eras (2026-07-28 listeners add their subscription id to `_meta`). */
export function notificationOf(e: FeatureChanged): { method: string; params: Record<string, unknown> } {
  if (e.change === 'resource') return { method: 'notifications/resources/updated', params: { uri: e.uri } };
  return { method: `notifications/${e.change}/list_changed`, params: {} };
}
