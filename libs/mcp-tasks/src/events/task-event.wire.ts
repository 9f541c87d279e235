import type { TaskEvent } from './task-event-bus.interface.js';

/** One event as a broker bus (Redis, NATS) carries it: the sender, its count of events, the event. */
export interface WireEvent {
  /** The sending instance: an instance drops its own echoes. */
  i: string;
  /** The sender's count: one event sent under two topics reaches a follower of both once. */
  n: number;
  e: TaskEvent;
}

const STATUSES = new Set(['working', 'input_required', 'completed', 'failed', 'cancelled']);
const CHANGES = new Set(['resources', 'prompts', 'resource']);

/** `text` as a `WireEvent`, or `undefined`: anyone who can reach the broker may publish, so only our shape counts. */
export function readWireEvent(text: string): WireEvent | undefined {
  let wire: Partial<WireEvent> | null;
  try {
    wire = JSON.parse(text) as Partial<WireEvent> | null;
  } catch {
    return undefined;
  }
  if (!wire || typeof wire.i !== 'string' || typeof wire.n !== 'number') return undefined;
  const event = asTaskEvent(wire.e);
  return event && { i: wire.i, n: wire.n, e: event };
}

/** The event rebuilt from its known fields (nothing else passes through), or `undefined` when it is not one. */
function asTaskEvent(value: unknown): TaskEvent | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const e = value as Record<string, unknown>;
  const { type, taskId } = e;
  if (typeof taskId !== 'string') return undefined;
  switch (type) {
    case 'cancel-requested':
    case 'input-answered':
      return { type, taskId };
    case 'status-changed':
      if (typeof e.status !== 'string' || !STATUSES.has(e.status)) return undefined;
      return {
        type,
        taskId,
        status: e.status as never,
        ...(typeof e.session === 'string' ? { session: e.session } : {}),
      };
    case 'question-answered':
      if (typeof e.question !== 'string' || !e.answer || typeof e.answer !== 'object') return undefined;
      return {
        type,
        taskId,
        question: e.question,
        answer: e.answer as never,
        ...(typeof e.replyTo === 'string' ? { replyTo: e.replyTo } : {}),
      };
    case 'question-received':
      return typeof e.question === 'string' ? { type, taskId, question: e.question } : undefined;
    case 'feature-changed':
      if (typeof e.change !== 'string' || !CHANGES.has(e.change)) return undefined;
      if (e.change === 'resource' && typeof e.uri !== 'string') return undefined;
      return {
        type,
        taskId: '',
        change: e.change as never,
        ...(e.change === 'resource' ? { uri: e.uri as string } : {}),
      };
    default:
      return undefined;
  }
}
