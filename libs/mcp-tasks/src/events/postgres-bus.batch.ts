/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_PAYLOAD = 7_999;

/** A notice waiting for its NOTIFY (on each of its channels); `sent` (question answers only) hears how that went. */
export interface Queued {
  text: string;
  channels: string[];
  sent?: (err?: Error) => void;
}

/**
 * Every notice of a batch in one statement (one transaction), delivered in array order, each on its channel. Named:
 * PostgreSQL parses and plans it once per connection, not once per batch.
 */
export const NOTIFY_MANY = {
  name: 'mcp_tasks_notify_on',
  text: 'SELECT pg_notify(c, n) FROM unnest($1::text[], $2::text[]) AS t(c, n)',
};

/** The statement's two arrays: each notice once per channel it goes on. */
export function notifyValues(batch: Queued[]): [string[], string[]] {
  return [batch.flatMap((q) => q.channels), batch.flatMap((q) => q.channels.map(() => q.text))];
}

/** Tells each waiting publisher of `batch` how its NOTIFY went. */
export function sentAll(batch: Queued[], err?: Error): void {
  for (const q of batch) q.sent?.(err);
}
