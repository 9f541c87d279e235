import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitRequestParams,
  ElicitResult,
  ListRootsResult,
} from '@modelcontextprotocol/client';

/**
 * What a handler is told about the question it answers.
 * @publicApi
 */
export interface InputContext {
  /** The server's key for this input; unique within one tool call or task. */
  key: string;
  /** The task that asks, when the question came from a task (`input_required`); absent in a synchronous MRTR round. */
  taskId?: string;
  /** Aborted when the answer is no longer wanted (the task ended, the call was aborted, the client closed). */
  signal?: AbortSignal;
}

/**
 * Answers to the questions a tool asks (`ctx.elicit`, `ctx.sample`, `ctx.roots` on the server). Each
 * handler that is set declares its capability (`elicitation` form mode, `sampling`, `roots`); a
 * server does not ask for kinds a client did not declare. The same handler answers synchronous
 * MRTR rounds and task `input_required` states; each input key is answered once.
 * @publicApi
 */
export interface McpInputHandlers {
  /** Answers `elicitation/create` (a form): `{ action: 'accept' | 'decline' | 'cancel', content? }`. */
  elicitation?: (params: ElicitRequestParams, ctx: InputContext) => ElicitResult | Promise<ElicitResult>;
  /** Answers `sampling/createMessage` with the model's message. */
  sampling?: (
    params: CreateMessageRequestParams,
    ctx: InputContext,
  ) => CreateMessageResult | Promise<CreateMessageResult>;
  /** Answers `roots/list`: `{ roots: [{ uri, name? }] }`. */
  roots?: (ctx: InputContext) => ListRootsResult | Promise<ListRootsResult>;
}
