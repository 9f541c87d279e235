import { LocalTaskEventBus, type TaskEvent } from '@mcp-tasks/nestjs';

/** The in-process bus, counting its live subscriptions (what a listen or a runner holds on it). */
export class CountingBus extends LocalTaskEventBus {
  subscribers = 0;

  override subscribe(handler: (event: TaskEvent) => void): () => void {
    const off = super.subscribe(handler);
    this.subscribers++;
    let on = true;
    return () => {
      if (on) this.subscribers--;
      on = false;
      off();
    };
  }
}
