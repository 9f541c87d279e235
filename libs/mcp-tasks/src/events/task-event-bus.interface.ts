import { TASK_EVENT_BUS } from '../mcp-tasks.constants.js';
import type { TaskStatus } from '../protocol/wire.interface.js';

/**
 * What instances tell each other about a task. Payloads are ids, never results — but for `question-answered`.
 * @publicApi
 */
export type TaskEvent =
  | { type: 'cancel-requested'; taskId: string }
  | { type: 'input-answered'; taskId: string }
  /** `session`: the 2025-11-25 session that created the task, so that session's open stream can follow it. */
  | { type: 'status-changed'; taskId: string; status: TaskStatus; session?: string }
  /**
   * A 2025-era client's answer to a question a call running in the request asked it, for the instance running the
   * call: `taskId` is that run's random id (no task has it), `question` the question's JSON-RPC id, `replyTo` the
   * topic its receipt goes to (`question-received`). The only event that carries a client's data: a bus that relays
   * between instances carries it whole or rejects its `publish` (the PostgreSQL bus rejects one over 8000 bytes, and
   * one it cannot send), so the answer is never lost silently.
   */
  | { type: 'question-answered'; taskId: string; question: string; answer: QuestionAnswer; replyTo?: string }
  /**
   * The instance running a call took (or had already taken) the answer to `question`: sent under the `replyTo` topic
   * of the `question-answered` it heard (as `taskId`), so the instance that relayed the answer stops sending it again.
   * An answer is sent again every `pollInterval` until then (at most `questionTimeout`): one relayed while the asking
   * instance's link to the broker was down reaches it once the link is back.
   */
  | { type: 'question-received'; taskId: string; question: string }
  /**
   * The app announced a change of its resources or prompts (`McpResourceNotifier`, `McpPromptNotifier`), for every
   * instance's listeners: `taskId` is empty (no task), `uri` names the updated resource (`change: 'resource'`).
   */
  | { type: 'feature-changed'; taskId: ''; change: FeatureChange; uri?: string };

/**
 * What changed: the resource list, the prompt list, or one resource's contents.
 * @publicApi
 */
export type FeatureChange = 'resources' | 'prompts' | 'resource';

/**
 * A client's answer to a question: its result, or the error it (or the instance that took it) gave instead.
 * @publicApi
 */
export type QuestionAnswer = { result: unknown } | { error: { code: number; message: string } };

/**
 * Relays task events to every instance (including this one). The interface and its injection token
 * share one name. Delivery may be lost: waiting runs also re-read the store every `pollInterval`.
 * @publicApi
 */
export interface TaskEventBus {
  publish(event: TaskEvent): Promise<void>;
  /** Returns an unsubscribe function. */
  subscribe(handler: (event: TaskEvent) => void): () => void;
  /**
   * Declares that this instance needs the events relayed under `topic` (`taskEventTopics`: a task's or a run's id,
   * a 2025-era session) until the returned function is called. A bus that relays between instances then sends an
   * event only to the instances following one of its topics — an event without topics to every instance — so an
   * instance's cost per event does not grow with the number of instances. Follows are counted per topic. Events
   * published on this instance reach its own subscribers whatever it follows. A bus without `follow` relays every
   * event to every instance.
   *
   * A follow takes effect on the broker a moment after the call (a LISTEN, a SUBSCRIBE): an event another instance
   * publishes in between is not relayed here. `onActive`, when the bus takes it (a second parameter), is called once
   * the follow is in effect, and again after each re-join (the link to the broker was lost and a new one follows the
   * topic again: what was published meanwhile was not relayed here) — never during the call, never after the
   * unfollow — so the follower re-reads then what it follows and misses nothing published before (the runner re-reads
   * its task's status: a cancel or an answer sent the moment the create returned is applied at once, not a
   * `pollInterval` later). A follower's re-read must therefore be harmless when repeated.
   */
  follow?(topic: string, onActive?: () => void): () => void;
  /**
   * Whether the bus reaches the other instances now, for the health indicator (`bus: 'connected'`, or
   * `'disconnected'` and `down`). A bus without it relays in this process only (`bus: 'in-process'`): one that
   * relays between instances implements it.
   */
  health?(): TaskEventBusHealth;
}

/**
 * What a bus says of its link to the other instances.
 * @publicApi
 */
export interface TaskEventBusHealth {
  /** Whether its connection is up: events published now reach the other instances. */
  connected: boolean;
}

/** The bus's injection token (`@InjectTaskEventBus()` injects it). */
export const TaskEventBus = TASK_EVENT_BUS;

/** Whether `value` implements `TaskEventBus` (for the `bus` option, which also takes a configuration). */
export const isTaskEventBus = (value: unknown): value is TaskEventBus =>
  !!value && ['publish', 'subscribe'].every((m) => typeof (value as Record<string, unknown>)[m] === 'function');
