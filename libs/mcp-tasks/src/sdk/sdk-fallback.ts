import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHandlerRequestOptions, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Principal } from '../common/principal.interface.js';
import { SdkServerFactory } from './sdk-server.factory.js';

type AuthInfo = NonNullable<McpHandlerRequestOptions['authInfo']>;

/**
 * Everything the library does not answer itself goes to the official SDK: `server/discover`, `tools/list`,
 * unknown methods (404), notifications (202), GET without a session and DELETE (405), and what the 2025 era asks
 * besides `initialize`, `tools/call` and `tasks/*` (lists, `ping`) through the SDK's stateless fallback. The caller
 * reaches the server the SDK builds per request as that request's `authInfo` — the SDK's own way to hand its server
 * factory "who is calling".
 */
@Injectable()
export class SdkFallback implements OnModuleDestroy {
  private readonly handler: McpHttpHandler;

  constructor(servers: SdkServerFactory) {
    this.handler = createMcpHandler(
      (ctx) => servers.create(ctx.era, callerOf(ctx.authInfo), ctx.requestInfo?.headers.get('mcp-protocol-version')),
      {
        legacy: 'stateless',
        responseMode: 'auto',
      },
    );
  }

  /** Serves one HTTP request for `caller`; `body` is the request's parsed JSON body, if any. */
  serve(req: IncomingMessage, res: ServerResponse, body: unknown, caller: Principal): Promise<void> {
    const authInfo: AuthInfo = { token: '', clientId: '', scopes: caller.scopes, extra: { caller } };
    const forCaller = {
      fetch: (request: Request, options?: McpHandlerRequestOptions) =>
        this.handler.fetch(request, { ...options, authInfo }),
    };
    return toNodeHandler(forCaller)(req, res, body);
  }

  async onModuleDestroy(): Promise<void> {
    await this.handler.close();
  }
}

const callerOf = (authInfo: AuthInfo | undefined): Principal => authInfo!.extra!.caller as Principal;
