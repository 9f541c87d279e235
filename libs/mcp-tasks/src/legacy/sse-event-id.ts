/**
 * The `id` of an SSE event on a resumable 2025-11-25 reply: `<instance>:<stream>:<seq>`. The instance says which
 * server holds the stream's events (only that one can resume it), the stream which POST's reply it belongs to (the
 * spec's "sufficient information to identify the originating stream"), `seq` the event's place in it (0: priming).
 */
export interface SseEventId {
  instance: string;
  /** `<instance>:<stream>`: the key the event log holds the stream under. */
  stream: string;
  seq: number;
}

const SHAPE = /^([0-9a-f-]{36}):([0-9a-f-]{36}):(0|[1-9][0-9]{0,8})$/;

export const sseEventId = (stream: string, seq: number): string => `${stream}:${seq}`;

/** The parts of a `Last-Event-ID`, or none when it is not one of ours. */
export function parseSseEventId(text: string): SseEventId | undefined {
  const m = SHAPE.exec(text);
  return m ? { instance: m[1], stream: `${m[1]}:${m[2]}`, seq: Number(m[3]) } : undefined;
}
