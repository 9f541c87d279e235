import { McpTaskEvents, type McpRunOutcome, type McpTaskStartEvent } from './telemetry.events.js';

/** The part of `EventEmitter2` the library uses. */
export interface Emitter {
  emit(event: string, payload: unknown): unknown;
  hasListeners?(event: string): boolean;
  listenersAny?(): unknown[];
}

/** One run's `mcp.task.*` events: made only when someone listens (no payloads are built otherwise). */
export class RunEvents {
  private readonly started = performance.now();

  constructor(
    private readonly emitter: Emitter,
    private readonly base: McpTaskStartEvent,
  ) {
    emitter.emit(McpTaskEvents.start, base);
  }

  stop(status: McpRunOutcome, isError: boolean): void {
    const durationMs = performance.now() - this.started;
    this.emitter.emit(McpTaskEvents.stop, { ...this.base, status, isError, durationMs });
  }

  exception(error: unknown): void {
    const durationMs = performance.now() - this.started;
    this.emitter.emit(McpTaskEvents.exception, { ...this.base, error, durationMs });
  }
}
