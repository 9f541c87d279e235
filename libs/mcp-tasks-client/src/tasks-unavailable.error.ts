/**
 * A task feature (`awaitTask`, `getTask`, `updateTask`, `cancelTask`) used on a connection made through the
 * `legacy` fallback: a 2025-era server has no 2026-07-28 tasks, so nothing was sent.
 * @publicApi
 */
export class TasksUnavailableError extends Error {
  constructor(
    readonly feature: string,
    /** The revision the connection negotiated, e.g. `2025-11-25`. */
    readonly protocolVersion: string,
  ) {
    super(
      `${feature} needs a server at protocol 2026-07-28 with the Tasks extension; ` +
        `this one was connected at ${protocolVersion} (legacy), where only synchronous tool calls work`,
    );
    this.name = 'TasksUnavailableError';
  }
}
