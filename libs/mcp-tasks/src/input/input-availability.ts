import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { CAPABILITY_FOR } from './input-response.validator.js';

/** The first revision that has each kind of input request (elicitation came in 2025-06-18). */
const SINCE: Record<InputRequest['method'], string> = {
  'elicitation/create': '2025-06-18',
  'sampling/createMessage': '2024-11-05',
  'roots/list': '2024-11-05',
};

/** Whether a client on `protocolVersion` that declared `capabilities` can be asked `method` (dates sort as text). */
export const canAsk = (method: InputRequest['method'], protocolVersion: string, capabilities: Record<string, any>) =>
  protocolVersion >= SINCE[method] && !!capabilities?.[CAPABILITY_FOR[method]];

/**
 * The refusal (`-32600`, the 2025 wire has no `-32021`) of input a 2025-era client cannot be asked, with the way
 * out its revision has: a later revision, or the capability in `initialize`. Never `params.task`: a task asks
 * only what the call's client declared too. `subject` is what asks, as the message names it (`Tool x`, `Prompt y`).
 */
export function legacyInputRefusal(subject: string, method: InputRequest['method'], protocolVersion: string): RpcError {
  const capability = CAPABILITY_FOR[method];
  if (protocolVersion < SINCE[method]) {
    return new RpcError(
      RpcCode.InvalidRequest,
      `${subject} asks for input with ${method}, which protocol ${protocolVersion} does not have: ` +
        `connect with protocol ${SINCE[method]} or later and declare the client capability "${capability}"`,
    );
  }
  return new RpcError(
    RpcCode.InvalidRequest,
    `${subject} needs the client capability "${capability}" (${method}), which this client did not declare: ` +
      `declare it in initialize to be asked during the call`,
  );
}
