import type { HttpContext } from '../common/http-context.interface.js';
import type { Principal } from '../common/principal.interface.js';
import type { QuestionChannel } from '../context/question.channel.js';
import type { TaskCallVariant } from '../dispatcher/task-call.variant.js';

/** What the gateway needs of the `tools/call` it forwards (the dispatcher's `McpRequest` has it). */
export interface ProxiedCall {
  id: string | number;
  params: Record<string, any>;
  protocolVersion: string;
  clientCapabilities: Record<string, any>;
  clientInfo?: Record<string, unknown>;
  principal: Principal;
  signal: AbortSignal;
  inputResponses?: Record<string, unknown>;
  http: HttpContext;
  /** A 2025-era call: how it runs (a task only with `params.task`), the shape of its task handle. */
  variant?: TaskCallVariant;
  /** A 2025-era synchronous call whose client can be asked now, on the call's stream. */
  questions?: QuestionChannel;
}

/** What the call of a 2025-era caller is: its variant, and whether it runs as a task. */
export type Era = { variant: TaskCallVariant; task: boolean } | undefined;
