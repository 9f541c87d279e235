import { EventEmitter } from 'node:events';
import type { TaskEvent, TaskEventBus } from './task-event-bus.interface.js';

/** The default bus: in this process only (right for a single instance). */
export class LocalTaskEventBus implements TaskEventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  async publish(event: TaskEvent): Promise<void> {
    this.emitter.emit('event', event);
  }

  subscribe(handler: (event: TaskEvent) => void): () => void {
    this.emitter.on('event', handler);
    return () => this.emitter.off('event', handler);
  }
}
