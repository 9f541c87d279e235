/**
 * `nats` connection options for the bus (its `ConnectionOptions`, passed through as given): typed here so that the
 * library's typings need no `nats`.
 * @publicApi
 */
export interface NatsBusConnectionOptions {
  /** One server URL or several. */
  servers?: string | string[];
  user?: string;
  pass?: string;
  token?: string;
  /** Any other `nats` option (`authenticator`, `tls`, `name`, …). */
  [option: string]: unknown;
}

/**
 * The part of the app's own `NatsConnection` the bus uses (a `nats` connection fits).
 * @publicApi
 */
export interface NatsBusConnection {
  subscribe(subject: string, options?: object): { unsubscribe(): void };
  publish(subject: string, data?: Uint8Array): void;
  flush(): Promise<void>;
  isClosed(): boolean;
}
