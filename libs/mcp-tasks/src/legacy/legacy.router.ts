import { Inject, Injectable } from '@nestjs/common';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { LEGACY_DEFAULT_VERSION, LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { InputAnswerHandler } from './input-answer.handler.js';
import { parseInputRequestId } from './input-request-id.js';
import { badTransport, legacyError } from './legacy-error.js';
import { accepted, type LegacyExchange } from './legacy-exchange.js';
import { LegacyInitializeHandler } from './legacy-initialize.handler.js';
import { LegacySessions, type LegacySession } from './legacy-session.js';
import { LegacyStreams } from './legacy-streams.js';
import { LegacyTaskMethods, type LegacyTaskRequest } from './legacy-task-methods.handler.js';
import { LegacyToolCallHandler } from './legacy-tool-call.handler.js';
import { RequestCancels } from './request-cancels.js';

const TASK_METHODS = new Set(['tasks/get', 'tasks/cancel', 'tasks/result', 'tasks/list']);

const plain = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The 2025 era's own wire: `initialize` (a sealed session), `tools/call`, at 2025-11-25 the `tasks/*` methods and
 * their streams (the session's GET stream, blocking `tasks/result`), the client's answers to a task's questions, and
 * `notifications/cancelled`. Everything else of that era (lists, `ping`, other notifications, batches, `DELETE`,
 * `GET` without a session) is left to the SDK's stateless fallback, as are `tasks/*` where that revision has none.
 * A session id is checked on every request of the era: one that is not ours is 404.
 */
@Injectable()
export class LegacyRouter {
  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly sessions: LegacySessions,
    private readonly initialize: LegacyInitializeHandler,
    private readonly tools: LegacyToolCallHandler,
    private readonly methods: LegacyTaskMethods,
    private readonly answers: InputAnswerHandler,
    private readonly streams: LegacyStreams,
    private readonly cancels: RequestCancels,
  ) {}

  /**
   * Serves `x` when this wire answers it (`false` leaves it to the SDK). Throws, before writing anything, the
   * transport's own refusals (session 404, unsupported version 400, 406, 409); everything else is answered here.
   */
  async serve(x: LegacyExchange): Promise<boolean> {
    const session = this.sessions.of(x.req, x.principal.key);
    if (x.req.method === 'GET') return this.openStream(x, session);
    const body = x.body;
    if (x.req.method !== 'POST' || !plain(body)) return false;
    if (!('method' in body)) return this.answer(x, body, session);
    if (body.id === undefined) return this.notification(x, body, session);
    const request = { id: body.id, method: body.method, params: plain(body.params) ? body.params : {} };
    const task: LegacyTaskRequest = { ...request, principal: x.principal, session };
    if (request.method === 'initialize') {
      this.initialize.serve(request.id, body.params, x);
      return true;
    }
    if (request.method !== 'tools/call' && !TASK_METHODS.has(request.method)) return false;
    const version = this.version(x.req, session);
    if (request.method === 'tools/call') {
      await this.tools.serve(task, version, x);
      return true;
    }
    const tasksOn = this.options.tasks && version === LEGACY_PROTOCOL_VERSION;
    if (!tasksOn || (request.method === 'tasks/list' && !this.methods.lists)) return false;
    await this.methods.serve(task, x).catch((err: unknown) => x.reply(request.id).error(legacyError(err)));
    return true;
  }

  /** The version a request speaks: its header (400 if unsupported), else its session's, else 2025-03-26. */
  private version(req: IncomingMessage, session: LegacySession | undefined): string {
    const header = req.headers['mcp-protocol-version'];
    if (header === undefined) return session?.protocolVersion ?? LEGACY_DEFAULT_VERSION;
    if (typeof header === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return header;
    const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
    throw badTransport(
      400,
      `Bad Request: Unsupported protocol version: ${String(header)} (supported versions: ${supported})`,
    );
  }

  /** The session's GET stream (the SDK answers 405 without a session, as the spec allows). */
  private openStream(x: LegacyExchange, session: LegacySession | undefined): boolean {
    if (!session || !this.options.tasks) return false;
    if (!/\btext\/event-stream\b/.test(x.req.headers.accept ?? '')) {
      throw badTransport(406, 'Not Acceptable: Client must accept text/event-stream');
    }
    this.streams.openSession(session.id, x.principal.key, x.res);
    return true;
  }

  /** A client's answer to one of our requests; any other posted response was refused before it got here. */
  private async answer(x: LegacyExchange, body: Record<string, unknown>, session?: LegacySession): Promise<boolean> {
    const target = parseInputRequestId(body.id);
    if (!target) return false;
    await this.answers.serve(x, target, session?.id);
    return true;
  }

  private notification(x: LegacyExchange, body: Record<string, any>, session?: LegacySession): boolean {
    if (body.method !== 'notifications/cancelled') return false;
    this.cancels.cancel(x.principal, session?.id, body.params?.requestId);
    accepted(x.res);
    return true;
  }
}
