import { Injectable, Logger } from '@nestjs/common';
import type { Principal } from '../common/principal.interface.js';
import { RpcCode, TASKS_REQUIRED } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { TaskUpstream } from '../store/task.record.js';
import { UpstreamRegistry } from './upstream.registry.js';
import { UpstreamAnsweredError } from './upstream-answered.error.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';

/** How long a cancel waits for the upstream: the caller's `tasks/cancel` is answered after it, at the latest. */
const CANCEL_WAIT_MS = 5_000;

/** Who a relayed request is for and what it carries: the caller (for its token) and its trace fields. */
export interface RelayOrigin {
  principal: Principal;
  meta?: Record<string, unknown>;
}

/**
 * Sends what a caller does to a mirrored task on to the upstream task, from whichever instance the caller reached:
 * answers (`tasks/update`) and cancels (`tasks/cancel`).
 */
@Injectable()
export class UpstreamTaskRelay {
  private readonly logger = new Logger('McpTasks');

  constructor(private readonly registry: UpstreamRegistry) {}

  /**
   * `tasks/update` upstream with the answers to the given (outstanding) keys; nothing when there are none. An
   * upstream JSON-RPC error is the caller's answer; an unreachable upstream is `-32603` to retry.
   */
  async answer(upstream: TaskUpstream, answers: Record<string, unknown>, from: RelayOrigin): Promise<void> {
    if (Object.keys(answers).length === 0) return;
    try {
      await this.connection(upstream).request(
        'tasks/update',
        { taskId: upstream.taskId, inputResponses: answers },
        { principal: from.principal, capabilities: TASKS_REQUIRED, meta: from.meta },
      );
    } catch (err) {
      if (err instanceof UpstreamAnsweredError) throw err.toRpcError();
      if (err instanceof UpstreamUnreachableError) {
        this.logger.warn(`tasks/update: ${err.message}`);
        throw err.toRpcError();
      }
      throw err;
    }
  }

  /**
   * `tasks/cancel` upstream; says whether the upstream acknowledged within a few seconds (a failure is logged: the
   * mirror sends its own cancel, and retries).
   */
  async cancel(upstream: TaskUpstream, from: RelayOrigin): Promise<boolean> {
    try {
      await this.connection(upstream).request(
        'tasks/cancel',
        { taskId: upstream.taskId },
        {
          principal: from.principal,
          capabilities: TASKS_REQUIRED,
          meta: from.meta,
          signal: AbortSignal.timeout(CANCEL_WAIT_MS),
        },
      );
      return true;
    } catch (err) {
      this.logger.warn(`upstream "${upstream.name}": task ${upstream.taskId} not cancelled yet: ${String(err)}`);
      return false;
    }
  }

  private connection(upstream: TaskUpstream) {
    const connection = this.registry.upstream(upstream.name);
    if (!connection) throw new RpcError(RpcCode.InternalError, `Upstream "${upstream.name}" is not configured here`);
    return connection;
  }
}
