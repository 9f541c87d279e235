import { EventEmitter2 } from '@nestjs/event-emitter';
import type { TaskEvent, TaskEventBus } from './task-event-bus.interface.js';

const EVENT = 'mcp-tasks.task-event';

/** The default bus: in this process only (right for a single instance), on an EventEmitter2 of its own. */
export class LocalTaskEventBus implements TaskEventBus {
  private readonly emitter = new EventEmitter2({ maxListeners: 0 });

  async publish(event: TaskEvent): Promise<void> {
    this.emitter.emit(EVENT, event);
  }

  subscribe(handler: (event: TaskEvent) => void): () => void {
    this.emitter.on(EVENT, handler);
    return () => {
      this.emitter.off(EVENT, handler);
    };
  }
}
