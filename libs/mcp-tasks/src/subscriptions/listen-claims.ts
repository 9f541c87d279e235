import type { ResolvedOptions } from '../options/resolved-options.interface.js';

/** A `subscriptions/listen` naming tasks (with the `tasks` option on). */
export const namesTasks = (params: Record<string, any>, options: ResolvedOptions): boolean =>
  options.tasks && params.notifications?.taskIds !== undefined;

/** A `subscriptions/listen` asking for resource or prompt changes. */
export const namesFeatures = (params: Record<string, any>): boolean => {
  const n = params.notifications;
  return (
    !!n &&
    typeof n === 'object' &&
    (n.resourcesListChanged !== undefined ||
      n.promptsListChanged !== undefined ||
      n.resourceSubscriptions !== undefined)
  );
};
