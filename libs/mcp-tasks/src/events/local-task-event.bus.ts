import { EventEmitter } from 'node:events';
import type { TaskEvent, TaskEventBus } from './task-event-bus.interface.js';

const EVENT = 'task-event';

/**
 * The default bus: in this process only (right for a single instance).
 * @publicApi
 */
export class LocalTaskEventBus implements TaskEventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: TaskEvent): Promise<void> {
    this.emitter.emit(EVENT, event);
  }

  /** How many subscriptions are live (for diagnostics and tests: each open listen holds one). */
  get subscriberCount(): number {
    return this.emitter.listenerCount(EVENT);
  }

  subscribe(handler: (event: TaskEvent) => void): () => void {
    this.emitter.on(EVENT, handler);
    return () => {
      this.emitter.off(EVENT, handler);
    };
  }
}
