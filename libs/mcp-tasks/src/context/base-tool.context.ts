import type { LoggingLevel } from '../common/logging-level.js';
import type { Principal } from '../common/principal.interface.js';
import type { ElicitResult, ToolContext } from '../common/tool-context.interface.js';
import type { TraceContext } from '../common/trace-context.js';
import { CAPABILITY_FOR } from '../input/input-response.validator.js';
import { canAsk, legacyInputRefusal } from '../input/input-availability.js';
import { MODERN_PROTOCOL_VERSION } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import type { TaskRunEnd } from './task-run.handle.js';

/** The `tools/call` a run came from: what both run modes know about the caller, fixed when the call arrived. */
export interface ToolCallOrigin {
  tool: string;
  /** What runs, as refusals name it: `Tool <tool>` unless given (a prompt's or a resource's run). */
  subject?: string;
  protocolVersion: string;
  clientCapabilities: Record<string, any>;
  clientInfo?: Record<string, unknown>;
  principal: Principal;
  /** JSON-RPC id of the `tools/call` that started the run. */
  requestId: string | number;
  /** Trace context of that `tools/call` (its span), so a later task run still joins its trace. */
  traceContext: TraceContext;
}

/** What a call's origin is made of. */
type CallFields = Pick<ToolCallOrigin, 'protocolVersion' | 'clientCapabilities' | 'clientInfo' | 'principal'> & {
  id: string | number;
};

/**
 * The origin of a call to `tool`, field by field: a spread of the request followed by more properties made V8
 * (Node 20) build each one through its runtime, ~2 µs a call; and the origin keeps no reference to the HTTP objects.
 */
export const callOrigin = (req: CallFields, tool: string, traceContext: TraceContext): ToolCallOrigin => ({
  tool,
  protocolVersion: req.protocolVersion,
  clientCapabilities: req.clientCapabilities,
  clientInfo: req.clientInfo,
  principal: req.principal,
  requestId: req.id,
  traceContext,
});

/** Shared part of the synchronous and the task context; subclasses decide how input is obtained. */
export abstract class BaseToolContext implements ToolContext {
  readonly tool: string;
  readonly protocolVersion: string;
  readonly clientCapabilities: Record<string, any>;
  readonly clientInfo?: Record<string, unknown>;
  readonly principal: Principal;
  /** Not part of `ToolContext`: read by the library's telemetry. */
  readonly requestId: string | number;
  readonly traceContext: TraceContext;
  abstract readonly taskId?: string;
  abstract readonly signal: AbortSignal;
  abstract readonly attempt: number;
  abstract readonly checkpointed: unknown;
  /**
   * Not part of `ToolContext`: a task run's end as the store holds it (read by the telemetry); none in a request;
   * `null` when the task went on elsewhere (another attempt runs it).
   */
  readonly runEnded?: Promise<TaskRunEnd | null>;
  /** What runs, as refusals name it (`Tool x`, `Prompt y`). */
  protected readonly subject: string;

  constructor(origin: ToolCallOrigin) {
    this.tool = origin.tool;
    this.subject = origin.subject ?? `Tool ${origin.tool}`;
    this.protocolVersion = origin.protocolVersion;
    this.clientCapabilities = origin.clientCapabilities;
    this.clientInfo = origin.clientInfo;
    this.principal = origin.principal;
    this.requestId = origin.requestId;
    this.traceContext = origin.traceContext;
  }

  get cancelled(): boolean {
    return this.signal.aborted;
  }

  abstract progress(done: number, total?: number, message?: string): Promise<void>;

  abstract log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;

  abstract checkpoint(value: unknown): Promise<void>;

  protected abstract ask(key: string, request: InputRequest): Promise<unknown>;

  /**
   * Refuses (`-32021`) a kind of input the call that started this run did not declare it can answer; on a 2025 wire,
   * which has no such code, `-32600` — also for input its revision does not have (elicitation before 2025-06-18).
   */
  protected requireCapability(request: InputRequest): void {
    if (this.protocolVersion !== MODERN_PROTOCOL_VERSION) {
      if (canAsk(request.method, this.protocolVersion, this.clientCapabilities)) return;
      throw legacyInputRefusal(this.subject, request.method, this.protocolVersion);
    }
    const capability = CAPABILITY_FOR[request.method];
    if (this.clientCapabilities?.[capability]) return;
    const need = `${this.subject} needs the client capability "${capability}" (${request.method})`;
    throw RpcError.missingCapability({ [capability]: {} }, need);
  }

  /** No call connection to let go of: only a 2025-11-25 call in a session has one (`SyncToolContext`). */
  closeStream(): boolean {
    return false;
  }

  elicit(key: string, message: string, requestedSchema: Record<string, unknown>): Promise<ElicitResult> {
    return this.ask(key, {
      method: 'elicitation/create',
      params: { mode: 'form', message, requestedSchema },
    }) as Promise<ElicitResult>;
  }

  sample(key: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.ask(key, { method: 'sampling/createMessage', params }) as Promise<Record<string, unknown>>;
  }

  roots(key: string): Promise<{ roots: Array<{ uri: string; name?: string }> }> {
    return this.ask(key, { method: 'roots/list', params: {} }) as Promise<{
      roots: Array<{ uri: string; name?: string }>;
    }>;
  }
}

/** One line of progress for a status message: "message (done/total)". */
export function progressText(done: number, total?: number, message?: string): string {
  const count = total === undefined ? `${done}` : `${done}/${total}`;
  return message ? `${message} (${count})` : count;
}
