import { Injectable } from '@nestjs/common';
import { ProtocolError, type Server } from '@modelcontextprotocol/server';
import type { HttpContext } from '../common/http-context.interface.js';
import type { Principal } from '../common/principal.interface.js';
import { progressSink, type ProgressNotification } from '../context/progress.sink.js';
import { McpDispatcher } from '../dispatcher/mcp.dispatcher.js';
import { LEGACY_PROTOCOL_VERSION, RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from '../protocol/rpc-error.js';
import { McpTracing } from '../telemetry/tracing.js';

/** What the SDK tells a request handler about the request it serves. */
interface LegacyRequest {
  id: string | number;
  signal: AbortSignal;
  notify(notification: ProgressNotification): Promise<void>;
}

/**
 * `tools/call` from a 2025-era client, whose wire the SDK's stateless fallback serves: the call is dispatched like
 * a 2026-07-28 one, without client capabilities (such a client can neither declare the Tasks extension nor answer
 * input here), and a refusal comes back as the SDK's protocol error.
 */
@Injectable()
export class LegacyToolCallHandler {
  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly tracing: McpTracing,
  ) {}

  /** Serves `tools/call` on the per-request SDK `server` built for `caller`. */
  register(server: Server, caller: Principal, http: HttpContext): void {
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const params = request.params as Record<string, unknown>;
      return (await this.call(params, ctx.mcpReq, caller, http)) as never;
    });
  }

  private async call(
    params: Record<string, unknown>,
    req: LegacyRequest,
    caller: Principal,
    http: HttpContext,
  ): Promise<unknown> {
    const token = (params._meta as { progressToken?: unknown } | undefined)?.progressToken;
    try {
      const { resultType: _, ...result } = await this.dispatcher.dispatch({
        id: req.id,
        method: 'tools/call',
        params,
        protocolVersion: LEGACY_PROTOCOL_VERSION,
        clientCapabilities: {},
        principal: caller,
        http,
        signal: req.signal,
        traceContext: this.tracing.active(),
        progress: progressSink(token, (n) => req.notify(n)),
      });
      return result;
    } catch (err) {
      throw protocolErrorOf(err, params.name);
    }
  }
}

function protocolErrorOf(err: unknown, tool: unknown): unknown {
  if (!(err instanceof RpcError)) return err;
  // -32021 is a 2026-07-28 code: a 2025-era client learns why in terms it knows.
  if (err.code === RpcCode.MissingCapability) {
    return new ProtocolError(
      RpcCode.InvalidRequest,
      `${String(tool)} needs tasks or input from the client, which this server offers on protocol 2026-07-28 only`,
    );
  }
  return new ProtocolError(err.code, err.message, err.data);
}
