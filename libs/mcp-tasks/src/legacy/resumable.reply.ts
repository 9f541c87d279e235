import type { ServerResponse } from 'node:http';
import { Reply } from '../http/reply.js';
import type { RpcError } from '../protocol/rpc.error.js';
import type { LegacyReply } from './legacy-exchange.js';
import type { SseEventLog } from './sse-event.log.js';
import type { SseStreamBuffer } from './sse-stream.buffer.js';

/**
 * The reply to a 2025-11-25 request in a session: JSON as before while nothing streams; once something does (a
 * notification, a question, or the run asking to let go of the connection) an SSE stream whose first event primes
 * the client (an id, empty data, `retry`), whose every event has an id and is kept in the `SseEventLog`, so a `GET`
 * with `Last-Event-ID` resumes it — after a dropped connection, or after `release()` closed it on purpose.
 */
export class ResumableReply implements LegacyReply {
  private readonly plain: Reply;
  private stream?: SseStreamBuffer;

  constructor(
    private readonly res: ServerResponse,
    private readonly id: string | number,
    private readonly log: SseEventLog,
    private readonly session: string,
    private readonly owner: string,
  ) {
    this.plain = new Reply(res, id);
  }

  get closed(): boolean {
    return this.stream ? this.stream.done : this.plain.closed;
  }

  notify(message: Record<string, unknown>): void {
    if (this.closed) return;
    this.streaming().push(message);
  }

  result(result: Record<string, unknown>): void {
    if (this.stream) this.stream.finish({ id: this.id, result });
    else this.plain.result(result);
  }

  error(err: RpcError): void {
    if (this.stream) this.stream.finish({ id: this.id, error: err.toJSON() });
    else this.plain.error(err);
  }

  withdraw(): void {
    if (this.stream) this.stream.finish();
    else this.plain.withdraw();
  }

  /**
   * Closes the connection without ending the stream (SEP-1699 polling): the client comes back with `Last-Event-ID`
   * after `retry` and gets the rest there. Whether it did (not once the reply is answered or gone).
   */
  release(): boolean {
    if (this.closed) return false;
    this.streaming().release();
    return true;
  }

  private streaming(): SseStreamBuffer {
    if (!this.stream) {
      this.stream = this.log.open(this.session, this.owner);
      this.stream.prime(this.res, this.log.retryMs);
    }
    return this.stream;
  }
}
