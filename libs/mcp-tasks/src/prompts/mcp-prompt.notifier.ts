import { Injectable } from '@nestjs/common';
import { InjectTaskEventBus } from '../decorators/inject.decorators.js';
import { TaskEventBus } from '../events/task-event-bus.interface.js';
import { featureChanged } from '../subscriptions/feature-change.js';

/**
 * Announces that the list of prompts changed, on every instance (through the event bus):
 * `notifications/prompts/list_changed` to 2026-07-28 listeners that asked for `promptsListChanged` and to every
 * 2025-era session's GET stream. Inject it where the prompts change.
 * @publicApi
 */
@Injectable()
export class McpPromptNotifier {
  constructor(@InjectTaskEventBus() private readonly bus: TaskEventBus) {}

  listChanged(): void {
    void this.bus.publish(featureChanged('prompts')).catch(() => undefined);
  }
}
