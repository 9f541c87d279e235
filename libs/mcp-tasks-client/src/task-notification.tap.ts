import type { Client } from '@modelcontextprotocol/client';
import type { PollCadence } from './poll-cadence.policy.js';

type Notification = Parameters<NonNullable<Client['fallbackNotificationHandler']>>[0];

/**
 * Sits in front of the handler ext-tasks installs for unhandled notifications (where
 * `notifications/tasks` from a `subscriptions/listen` stream end up).
 *
 * - It applies the poll cadence to notified snapshots, for the same reason `tasks/get` results get it.
 * - It remembers the latest notification of each watched task, so `awaitTask` can replay it once
 *   ext-tasks follows the task: ext-tasks drops notifications for tasks it does not follow yet,
 *   and one arriving between the listen acknowledgement and that first read would be lost.
 * - It hands notified tasks to listeners of their id (`awaitTask({ answer: false })` follows without ext-tasks).
 */
export class TaskNotificationTap {
  private readonly latest = new Map<string, Notification | undefined>();
  private readonly listeners = new Map<string, Set<(task: Record<string, unknown>) => void>>();
  private inner: Client['fallbackNotificationHandler'];

  constructor(private readonly cadence: PollCadence) {}

  /** Call after ext-tasks has installed its handler (i.e. after creating the session). */
  install(client: Client): void {
    this.inner = client.fallbackNotificationHandler;
    client.fallbackNotificationHandler = async (notification) => {
      const params = notification.params as { taskId?: unknown } | undefined;
      if (notification.method === 'notifications/tasks' && typeof params?.taskId === 'string') {
        this.cadence.apply(params);
        if (this.latest.has(params.taskId)) this.latest.set(params.taskId, notification);
        for (const listener of this.listeners.get(params.taskId) ?? []) listener({ ...params });
      }
      await this.inner?.(notification);
    };
  }

  watch(taskId: string): void {
    this.latest.set(taskId, undefined);
  }

  /** Hands the latest notification of `taskId` (if any) to ext-tasks again. */
  async replay(taskId: string): Promise<void> {
    const notification = this.latest.get(taskId);
    if (notification) await this.inner?.(notification);
  }

  unwatch(taskId: string): void {
    this.latest.delete(taskId);
  }

  /** Calls `listener` with the params of each `notifications/tasks` about `taskId`; returns the unsubscribe. */
  listen(taskId: string, listener: (task: Record<string, unknown>) => void): () => void {
    const set = this.listeners.get(taskId) ?? new Set();
    set.add(listener);
    this.listeners.set(taskId, set);
    return () => {
      set.delete(listener);
      if (!set.size) this.listeners.delete(taskId);
    };
  }
}
