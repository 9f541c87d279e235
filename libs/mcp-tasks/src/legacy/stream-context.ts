import type { TaskEventBus } from '../events/task-event-bus.interface.js';
import type { TaskStore } from '../store/task-store.interface.js';
import type { InputDelivery } from './input-delivery.js';

/** What the 2025-era streams of one registration share. */
export interface StreamContext {
  store: TaskStore;
  bus: TaskEventBus;
  delivery: InputDelivery;
  pollInterval: number;
  /** Comments that keep idle connections open through proxies. */
  keepAliveMs: number;
}
