import type { ServerResponse } from 'node:http';
import { SSE_HEADERS, sseMessage } from '../protocol/sse.js';
import { sseEventId } from './sse-event-id.js';

/** Events one stream keeps for a resume; older ones are dropped (a resume from before them is refused). */
export const MAX_STREAM_EVENTS = 1_000;

/**
 * One resumable POST reply (2025-11-25): every event it sent, with its id, and the connection it goes out on now —
 * the POST's, a resuming GET's, or none between the two (events wait here). Done once the answer (or a withdrawal)
 * is in; the log keeps it a while after that for a client that comes back late.
 */
export class SseStreamBuffer {
  private readonly events: string[] = [];
  /** The seq of `events[0]`. */
  private first = 1;
  private sink?: ServerResponse;
  done = false;
  /** When it was done (ms), for the log's expiry. */
  doneAt = 0;

  constructor(
    readonly key: string,
    readonly session: string,
    readonly owner: string,
  ) {}

  /** The seq of the last event sent. */
  get last(): number {
    return this.first + this.events.length - 1;
  }

  /** Starts the stream on `res` (the POST's): the priming event, with the reconnection delay. */
  prime(res: ServerResponse, retryMs: number): void {
    res.writeHead(200, SSE_HEADERS);
    res.write(`id: ${sseEventId(this.key, 0)}\nretry: ${retryMs}\ndata: \n\n`);
    this.attach(res);
  }

  push(message: Record<string, unknown>): void {
    if (this.done) return;
    const seq = this.last + 1;
    const text = `id: ${sseEventId(this.key, seq)}\n${sseMessage(message)}`;
    this.events.push(text);
    if (this.events.length > MAX_STREAM_EVENTS) {
      this.events.shift();
      this.first++;
    }
    if (this.sink && !this.sink.destroyed) this.sink.write(text);
  }

  /** The stream's end: its last message (the answer), if any; the connection ends. */
  finish(message?: Record<string, unknown>): void {
    if (message) this.push(message);
    this.done = true;
    this.doneAt = Date.now();
    this.release();
  }

  /** Ends the connection without ending the stream (the client resumes with `Last-Event-ID`). */
  release(): void {
    const sink = this.sink;
    this.sink = undefined;
    if (sink && !sink.writableEnded) sink.end();
  }

  /** Whether a resume after event `seq` can be served: it was sent, and is still kept (or is the priming one). */
  holds(seq: number): boolean {
    return seq <= this.last && seq >= this.first - 1;
  }

  /**
   * A resuming GET: the events after `seq`, then what comes next; a connection still attached (the POST's, or an
   * earlier GET's) ends, since each message goes out on one connection only.
   */
  resume(res: ServerResponse, seq: number): void {
    this.release();
    res.writeHead(200, SSE_HEADERS);
    res.flushHeaders();
    for (const text of this.events.slice(seq + 1 - this.first)) res.write(text);
    if (this.done) res.end();
    else this.attach(res);
  }

  private attach(res: ServerResponse): void {
    this.sink = res;
    res.once('close', () => {
      if (this.sink === res) this.sink = undefined;
    });
  }
}
