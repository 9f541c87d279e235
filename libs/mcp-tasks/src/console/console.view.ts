import { isTerminal, type InputRequest, type TaskStatus } from '../protocol/wire.interface.js';
import { parseOwnerKey } from '../owner/owner-key.js';
import type { TaskSummary } from '../store/task-queries.interface.js';
import type { TaskRecord } from '../store/task.record.js';

/** An owner key taken apart for display: (subject, server, OAuth client, resource). */
export interface OwnerView {
  key: string;
  subject: string;
  server?: string;
  client?: string;
  resource?: string;
}

/** Its parts; a key the library did not make is shown as it is, as the subject. */
export function describeOwner(key: string): OwnerView {
  return { key, ...(parseOwnerKey(key) ?? { subject: key }) };
}

/** The question a request asks, when it has one in words. */
function question(request: InputRequest): string | undefined {
  const params = request.params ?? {};
  if (typeof params.message === 'string') return params.message;
  const messages = Array.isArray(params.messages) ? (params.messages as { content?: { text?: unknown } }[]) : [];
  const text = messages.at(-1)?.content?.text;
  return typeof text === 'string' ? text : undefined;
}

export const summaryView = (t: TaskSummary) => ({ ...t, owner: describeOwner(t.owner) });

/** What the task page shows. Results and errors only with `showResults`; answers never. */
export function detailView(task: TaskRecord, showResults: boolean, here: string, now: number) {
  const ended = isTerminal(task.status);
  // The store keeps a task's creation, its last change and its current state; no step-by-step log.
  const history: { at: number; event: string; status: TaskStatus }[] = [
    { at: task.createdAt, event: 'created', status: 'working' },
  ];
  if (ended) history.push({ at: task.updatedAt, event: 'ended', status: task.status });
  else if (task.updatedAt > task.createdAt)
    history.push({ at: task.updatedAt, event: 'last change', status: task.status });
  const hasOutcome = task.result !== undefined || task.error !== undefined;
  return {
    id: task.id,
    tool: task.tool,
    status: task.status,
    statusMessage: task.statusMessage,
    owner: describeOwner(task.owner),
    requiredScopes: task.requiredScopes,
    createdAt: task.createdAt,
    updatedAt: task.updatedAt,
    expiresAt: task.expiresAt,
    history,
    input: {
      outstanding: Object.entries(task.inputRequests).map(([key, r]) => ({
        key,
        method: r.method,
        question: question(r),
      })),
      answeredKeys: Object.keys(task.inputResponses),
    },
    // A resumable task's runs: which this is, of how many allowed (`null`: the task does not resume).
    attempt: { number: task.attempt ?? 1, of: task.resume?.maxAttempts ?? null },
    lease: task.leaseOwner
      ? {
          instance: task.leaseOwner,
          until: task.leaseExpiresAt ?? null,
          thisInstance: task.leaseOwner === here,
          current: !ended && (task.leaseExpiresAt ?? 0) >= now,
        }
      : null,
    outcome: showResults
      ? { shown: true, result: task.result ?? null, error: task.error ?? null }
      : { shown: false, exists: hasOutcome },
  };
}
