import type {
  Client,
  ClientCapabilities,
  CreateMessageRequestParams,
  ElicitRequestParams,
} from '@modelcontextprotocol/client';
import type { ApplicationInputHandler } from '@modelcontextprotocol/ext-tasks/client';
import type { InputContext, McpInputHandlers } from './input-handlers.interface.js';

/** The capabilities the handlers stand for: a server only asks for kinds a client declared. */
export function inputCapabilities(handlers: McpInputHandlers): ClientCapabilities {
  return {
    ...(handlers.elicitation ? { elicitation: { form: {} } } : {}),
    ...(handlers.sampling ? { sampling: {} } : {}),
    ...(handlers.roots ? { roots: {} } : {}),
  };
}

/**
 * Registers the handlers on the SDK Client: its MRTR auto-fulfilment answers `input_required`
 * rounds of plain `client.callTool` (the non-task path) through them, with the input key as the
 * request id.
 */
export function registerInputHandlers(client: Client, handlers: McpInputHandlers): void {
  const ctxOf = (id: string | number, signal: AbortSignal): InputContext => ({ key: String(id), signal });
  const { elicitation, sampling, roots } = handlers;
  if (elicitation)
    client.setRequestHandler('elicitation/create', (req, ctx) =>
      elicitation(req.params, ctxOf(ctx.mcpReq.id, ctx.mcpReq.signal)),
    );
  if (sampling)
    client.setRequestHandler('sampling/createMessage', (req, ctx) =>
      sampling(req.params, ctxOf(ctx.mcpReq.id, ctx.mcpReq.signal)),
    );
  if (roots) client.setRequestHandler('roots/list', (_req, ctx) => roots(ctxOf(ctx.mcpReq.id, ctx.mcpReq.signal)));
}

/**
 * The same handlers as ext-tasks' `onInputRequest`, which answers MRTR rounds of task-capable
 * calls and `input_required` tasks (through `tasks/update`). A kind without a handler was not
 * declared, so a server asking for it is broken; the error is ext-tasks' to report.
 */
export function taskInputHandler(handlers: McpInputHandlers): ApplicationInputHandler['handle'] {
  const { elicitation, sampling, roots } = handlers;
  return (async (request, context) => {
    const ctx: InputContext = { key: context.inputId ?? '', taskId: context.taskId, signal: context.signal };
    if (request.kind === 'elicitation' && elicitation)
      return elicitation(request.params as unknown as ElicitRequestParams, ctx);
    if (request.kind === 'sampling' && sampling)
      return sampling(request.params as unknown as CreateMessageRequestParams, ctx);
    if (request.kind === 'roots' && roots) return roots(ctx);
    throw new Error(`The server asked for ${request.kind} input, but no ${request.kind} handler is configured`);
  }) as ApplicationInputHandler['handle'];
}
