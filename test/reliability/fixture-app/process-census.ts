import { Injectable } from '@nestjs/common';
import { DiscoveryService, ModuleRef } from '@nestjs/core';
import { TaskEventBus } from '@mcp-tasks/nestjs';

/** What a process holds that a leak would grow: handles and timers by kind, open listens, bus subscriptions. */
export interface Census {
  /** `process.getActiveResourcesInfo()` counted by kind (`TCPSocketWrap`, `Timeout`, …). */
  resources: Record<string, number>;
  /** Listen streams the library holds open. */
  openListens: number;
  /** Live subscriptions on the module's event bus. */
  busSubscribers: number;
}

/**
 * Counts them. The bus and the library's listen handler belong to the demo's `McpTasksModule`, so they are looked
 * up across modules (the handler by class name: it is not part of the public API).
 */
@Injectable()
export class ProcessCensus {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly moduleRef: ModuleRef,
  ) {}

  take(): Census {
    const resources: Record<string, number> = {};
    for (const kind of process.getActiveResourcesInfo()) resources[kind] = (resources[kind] ?? 0) + 1;
    const listens = this.discovery
      .getProviders()
      .filter((w) => w.metatype?.name === 'TaskListenHandler')
      .reduce((n, w) => n + Number((w.instance as { openStreams?: number } | undefined)?.openStreams ?? 0), 0);
    const bus = this.moduleRef.get<{ subscriberCount?: number }>(TaskEventBus, { strict: false });
    return { resources, openListens: listens, busSubscribers: bus.subscriberCount ?? -1 };
  }
}
