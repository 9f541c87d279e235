import { Injectable, Logger } from '@nestjs/common';
import type { QuestionAnswer } from '../events/task-event-bus.interface.js';
import { isValidInputResponse } from '../input/input-response.validator.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { ownerDigest } from '../owner/owner-key.js';
import { RpcError } from '../protocol/rpc.error.js';
import { clientErrorOf } from './client-error.js';
import { accepted, type LegacyExchange } from './legacy-exchange.js';
import { SyncQuestions } from './sync-questions.js';

/**
 * A client's POSTed answer to a question a call running in the request asked it (`{ id, result }` or
 * `{ id, error }`), landing on any instance: checked here from its sealed id alone, then handed to the run (here, or
 * relayed on the bus). Like a task's answers: an answer from anyone but the caller (another principal, another
 * session), or to an id we did not seal, is taken and dropped (202); a late one is dropped where the run was; a
 * result of the wrong shape is refused (400) and fails the question. An answer that cannot be relayed is refused
 * (500) and fails the question, so nothing is lost silently.
 */
@Injectable()
export class SyncAnswerHandler {
  private readonly logger = new Logger('McpTasks');

  constructor(private readonly questions: SyncQuestions) {}

  async serve(x: LegacyExchange, session?: string): Promise<void> {
    const body = x.body as { id?: unknown; result?: unknown; error?: unknown };
    const q = this.questions.ids.open(body.id);
    if (!q || q.owner !== ownerDigest(x.principal.key) || q.session !== session) {
      this.logger.debug(`answer to ${String(body.id)} dropped: not a question asked of this caller`);
      return accepted(x.res);
    }
    const id = body.id as string;
    if (body.error !== undefined) {
      if (await this.deliver(x, id, q.run, { error: clientErrorOf(body.error) })) accepted(x.res);
      return;
    }
    if (!isValidInputResponse(q, body.result)) {
      const message = `The client's answer to ${q.method} is not a valid result`;
      if (await this.deliver(x, id, q.run, { error: { code: RpcCode.InvalidParams, message } }))
        x.reply(null).error(new RpcError(RpcCode.InvalidParams, message, undefined, 400));
      return;
    }
    if (await this.deliver(x, id, q.run, { result: body.result })) accepted(x.res);
  }

  /**
   * Hands `answer` on; `true` when it went (the caller answers the POST). When it cannot go (over-size for the
   * bus, the bus down), the POST is
   * refused and the run is told its question failed (a short error relays where a long answer does not).
   */
  private async deliver(x: LegacyExchange, id: string, run: string, answer: QuestionAnswer): Promise<boolean> {
    try {
      await this.questions.deliver(id, run, answer);
      return true;
    } catch (err) {
      const message = `The answer could not be relayed to the instance running the call: ${(err as Error).message}`;
      await this.questions.deliver(id, run, { error: { code: RpcCode.InternalError, message } }).catch(() => {
        this.logger.warn(`answer to ${id} not relayed, nor its failure: the call waits until its questionTimeout`);
      });
      x.reply(null).error(new RpcError(RpcCode.InternalError, message, undefined, 500));
      return false;
    }
  }
}
