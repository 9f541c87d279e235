import type { FeatureChange, QuestionAnswer, TaskEvent } from './task-event-bus.interface.js';

/** An event as NOTIFY carries it: ids and a status, or a client's answer to a question (at most 8000 bytes). */
export interface Notice {
  /** The instance that sent it: an instance drops its own echoes. */
  instance: string;
  type: TaskEvent['type'];
  taskId: string;
  status?: string;
  session?: string;
  /**
   * This instance's count of its notices: PostgreSQL folds equal payloads sent in one transaction into one, and an
   * instance following two of an event's topics hears it twice (it takes the first).
   */
  seq?: number;
  question?: string;
  answer?: QuestionAnswer;
  replyTo?: string;
  change?: FeatureChange;
  uri?: string;
}

/** The notice that carries `event` from `instance`. */
export const noticeOf = (event: TaskEvent, instance: string, seq: number): Notice => ({
  instance,
  type: event.type,
  taskId: event.taskId,
  ...(event.type === 'status-changed' ? { status: event.status } : {}),
  ...(event.type === 'status-changed' && event.session !== undefined ? { session: event.session } : {}),
  ...(event.type === 'question-answered'
    ? { question: event.question, answer: event.answer, ...(event.replyTo ? { replyTo: event.replyTo } : {}) }
    : {}),
  ...(event.type === 'question-received' ? { question: event.question } : {}),
  ...(event.type === 'feature-changed' ? { change: event.change, uri: event.uri } : {}),
  seq,
});

/** The notice a payload holds, when it has our shape (anyone who can reach the database may NOTIFY). */
export function readNotice(payload: string | undefined): Notice | undefined {
  let notice: Notice | null;
  try {
    notice = JSON.parse(payload ?? '') as Notice | null;
  } catch {
    return undefined;
  }
  return notice && typeof notice === 'object' && typeof notice.taskId === 'string' ? notice : undefined;
}

/** The event a notice carries; `undefined` for one that is not well formed. */
export function eventOf(notice: Notice): TaskEvent | undefined {
  const { type, taskId, status, session } = notice;
  if (type === 'question-answered') {
    const { question, answer, replyTo } = notice;
    return typeof question === 'string' && answer && typeof answer === 'object'
      ? { type, taskId, question, answer, ...(typeof replyTo === 'string' ? { replyTo } : {}) }
      : undefined;
  }
  if (type === 'question-received')
    return typeof notice.question === 'string' ? { type, taskId, question: notice.question } : undefined;
  if (type === 'feature-changed') {
    const { change, uri } = notice;
    if (change === 'resources' || change === 'prompts' || (change === 'resource' && typeof uri === 'string'))
      return { type, taskId: '', change, ...(change === 'resource' ? { uri } : {}) };
    return undefined;
  }
  return (
    type === 'status-changed'
      ? { type, taskId, status, ...(typeof session === 'string' ? { session } : {}) }
      : { type, taskId }
  ) as TaskEvent;
}
