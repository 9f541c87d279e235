import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { Principal } from '../context/tool-context.js';
import { MCP_TASKS_OPTIONS, type ResolvedOptions } from '../options/resolved-options.js';

/** Subject used when no resolver is configured: the whole host is one principal. */
export const HOST_SCOPE = 'host';

/**
 * Who a request is. The owner key binds a task to the subject *and* what it came through: this
 * server, and (with authentication) the OAuth client and resource — tasks never cross any of them.
 */
@Injectable()
export class PrincipalResolver {
  constructor(@Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions) {}

  async resolve(req: IncomingMessage): Promise<Principal> {
    const subject = this.options.principal ? String(await this.options.principal(req)) : HOST_SCOPE;
    return { subject, scopes: [], key: ownerKey(subject, this.options.server.name, '', '') };
  }
}

export const ownerKey = (subject: string, server: string, client: string, resource: string): string =>
  JSON.stringify([subject, server, client, resource]);
