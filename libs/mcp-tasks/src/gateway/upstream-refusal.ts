import { CAPABILITY_FOR } from '../input/input-response.validator.js';
import { legacyInputRefusal } from '../input/input-availability.js';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc.error.js';
import type { InputRequest } from '../protocol/wire.interface.js';

const METHOD_OF = new Map(
  Object.entries(CAPABILITY_FOR).map(([method, cap]) => [cap, method as InputRequest['method']]),
);

/**
 * What a 2025-era caller gets for the upstream's `-32021` naming input the caller did not declare (the upstream saw
 * the caller's capabilities): that era has no such code, so the refusal a local tool gets, for the served tool. Any
 * other failure as it is.
 */
export function eraRefusal(err: unknown, tool: string, protocolVersion: string): unknown {
  if (!(err instanceof RpcError) || err.code !== RpcCode.MissingCapability) return err;
  const required = (err.data as { requiredCapabilities?: Record<string, unknown> } | undefined)?.requiredCapabilities;
  const method = Object.keys(required ?? {})
    .map((capability) => METHOD_OF.get(capability))
    .find((m) => m !== undefined);
  return method ? legacyInputRefusal(`Tool ${tool}`, method, protocolVersion) : err;
}
