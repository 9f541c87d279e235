import type { NatsBusConnection, NatsBusConnectionOptions } from './nats-bus.connection.js';

/**
 * The `bus: { type: 'nats' }` option: core NATS subjects between instances (`nats`, an optional peer). Each task's
 * events go on a subject of their own, heard only by the instances that follow the task.
 * @publicApi
 */
export interface NatsBusConfig {
  type: 'nats';
  /**
   * A `nats://` URL (or several, comma-separated), `nats` connection options, or the app's own `NatsConnection`
   * (the bus subscribes on it and leaves it open on shutdown; its reconnect settings are the app's). From a URL or
   * options the bus connects itself, reconnecting without limit. Required.
   */
  connection: string | NatsBusConnectionOptions | NatsBusConnection;
  /**
   * The first tokens of every subject (`<prefix>.t.<topic>`, `<prefix>.all`): letters, digits, `_` and `-`,
   * dot-separated. Apps sharing a NATS server keep apart by it.
   * @default 'mcp-tasks'
   */
  prefix?: string;
}
