import { Injectable } from '@nestjs/common';
import { OnEvent } from '@nestjs/event-emitter';
import { McpTaskEvents, type McpTaskStopEvent } from '@mcp-tasks/nestjs';

/**
 * Every `mcp.task.stop` of a task run this process emitted, by task id (only with `REL_RECORD_STOPS=1`: the load
 * phase compares them with the stored statuses; other phases would only grow the heap they measure).
 */
@Injectable()
export class StopEventsRecorder {
  private readonly stops = new Map<string, { status: string; isError: boolean; count: number }>();

  @OnEvent(McpTaskEvents.stop)
  record(e: McpTaskStopEvent): void {
    if (!e.taskId || process.env.REL_RECORD_STOPS !== '1') return;
    const seen = this.stops.get(e.taskId);
    this.stops.set(e.taskId, { status: e.status, isError: e.isError, count: (seen?.count ?? 0) + 1 });
  }

  all(): Record<string, { status: string; isError: boolean; count: number }> {
    return Object.fromEntries(this.stops);
  }
}
