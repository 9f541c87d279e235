import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { IncomingMessage } from 'node:http';
import { LEGACY_PROTOCOL_VERSION, MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { McpTracing } from '../telemetry/tracing.js';
import { InputAnswerHandler } from './input-answer.handler.js';
import { parseInputRequestId } from './input-request-id.js';
import { isQuestionId } from './question-id.js';
import { legacyError } from './legacy-error.mapper.js';
import { accepted, type LegacyExchange } from './legacy-exchange.js';
import type { LegacyMethodHandler, LegacyRequest } from './legacy-method-handler.interface.js';
import { LEGACY_METHODS, type LegacyMethod } from './legacy-methods.table.js';
import { LegacySessions, type LegacySession } from './legacy-session.js';
import { LegacyStreams } from './legacy-streams.js';
import { LEGACY_DEFAULT_VERSION } from './legacy.constants.js';
import { RequestCancels } from './request-cancels.js';
import { SseEventLog } from './sse-event.log.js';
import { SyncAnswerHandler } from './sync-answer.handler.js';
import { badTransport } from './transport.error.js';

const plain = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The 2025 era's own wire: the methods of its table (`legacy-methods.table.ts`: `initialize`, a sealed session;
 * `tools/call`; at 2025-11-25 the `tasks/*` methods), their streams (the session's GET stream, blocking
 * `tasks/result`), the client's answers to questions (a task's, or a call's asked on its stream), and
 * `notifications/cancelled`. Everything else of that era (lists, `ping`, other notifications, batches, `DELETE`,
 * `GET` without a session) is left to the SDK's stateless fallback, as are `tasks/*` where that revision has none.
 * A session id is checked on every request of the era: one that is not ours is 404.
 */
@Injectable()
export class LegacyRouter implements OnModuleInit {
  private readonly handlers = new Map<string, LegacyMethodHandler>();

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly sessions: LegacySessions,
    private readonly answers: InputAnswerHandler,
    private readonly syncAnswers: SyncAnswerHandler,
    private readonly streams: LegacyStreams,
    private readonly cancels: RequestCancels,
    private readonly events: SseEventLog,
    private readonly tracing: McpTracing,
    private readonly ref: ModuleRef,
  ) {}

  /** Each entry's handler, from this registration's providers (looked up once, not per request). */
  onModuleInit(): void {
    for (const [method, entry] of LEGACY_METHODS)
      this.handlers.set(method, this.ref.get(entry.handler, { strict: true }));
  }

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
    const method: unknown = body.method;
    const entry = typeof method === 'string' ? LEGACY_METHODS.get(method) : undefined;
    const handler = typeof method === 'string' ? this.handlers.get(method) : undefined;
    if (!entry || !handler) return false;
    const version = this.version(x.req, session, entry);
    if (entry.gate === 'tasks' && !(this.options.tasks && version === LEGACY_PROTOCOL_VERSION)) return false;
    if (handler.offered && !handler.offered()) return false;
    const params = plain(body.params) ? body.params : {};
    const req: LegacyRequest = { id: body.id, method: body.method, params, principal: x.principal, session, version };
    try {
      await (entry.span && this.options.telemetry ? this.traced(req, x, handler) : handler.serve(req, x));
    } catch (err) {
      x.reply(req.id).error(legacyError(err));
    }
    return true;
  }

  /** A light span, as on 2026-07-28. */
  private traced(req: LegacyRequest, x: LegacyExchange, handler: LegacyMethodHandler): Promise<void> {
    const taskId = typeof req.params.taskId === 'string' ? req.params.taskId : '';
    const attributes = {
      'mcp.method.name': req.method,
      'mcp.task.id': taskId,
      'jsonrpc.request.id': String(req.id),
      'mcp.protocol.version': req.version,
    };
    const parent = this.tracing.callerContext(req.params._meta as Record<string, unknown>, x.req.headers);
    return this.tracing.inSpan({ name: req.method, kind: 'server', attributes }, parent, async () =>
      handler.serve(req, x),
    );
  }

  /**
   * The version a request speaks: its header (400 if unsupported), else its session's, else 2025-03-26. A method
   * that settles the version (`initialize`) has its header unread.
   */
  private version(req: IncomingMessage, session: LegacySession | undefined, entry: LegacyMethod): string {
    const header = entry.settlesVersion ? undefined : req.headers['mcp-protocol-version'];
    if (header === undefined) return session?.protocolVersion ?? LEGACY_DEFAULT_VERSION;
    if (typeof header === 'string' && SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return header;
    const supported = SUPPORTED_PROTOCOL_VERSIONS.join(', ');
    throw badTransport(
      400,
      `Bad Request: Unsupported protocol version: ${String(header)} (supported versions: ${supported})`,
    );
  }

  /**
   * A GET with `Last-Event-ID` resumes a call's stream (`SseEventLog`); otherwise it opens the session's GET stream
   * (the SDK answers 405 without a session, as the spec allows).
   */
  private openStream(x: LegacyExchange, session: LegacySession | undefined): boolean {
    const resume = x.req.headers['last-event-id'];
    if (!session || (!this.options.tasks && resume === undefined)) return false;
    if (!/\btext\/event-stream\b/.test(x.req.headers.accept ?? '')) {
      throw badTransport(406, 'Not Acceptable: Client must accept text/event-stream');
    }
    if (resume !== undefined) {
      this.events.resume(String(resume), session.id, x.principal.key, x.res);
      return true;
    }
    this.streams.openSession(session.id, x.principal.key, x.res);
    return true;
  }

  /**
   * A client's answer to one of our requests — a task's, or a question asked during a call; any other posted
   * response was refused before it got here.
   */
  private async answer(x: LegacyExchange, body: Record<string, unknown>, session?: LegacySession): Promise<boolean> {
    if (isQuestionId(body.id)) {
      await this.syncAnswers.serve(x, session?.id);
      return true;
    }
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
