import { Inject, Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { ownerKey } from '../owner/owner-key.js';
import type { Principal } from '../common/principal.interface.js';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { HOST_SUBJECT } from './auth.constants.js';
import type { Authenticated } from './authenticated.interface.js';
import { BearerAuthenticator } from './bearer.authenticator.js';
import { principalFromClaims } from './claims-principal.js';
import { OwnerKeyMemo } from './owner-key.memo.js';

/**
 * Who a request is. The owner key binds a task to the subject *and* what it came through: this
 * server, and (with authentication) the OAuth client and resource — tasks never cross any of them.
 */
@Injectable()
export class PrincipalResolver {
  /** Without auth or a `subject` option every request is this one principal. */
  private host?: Principal;
  /** Per module instance, like the bearer's token cache. */
  private readonly keys = new OwnerKeyMemo();
  private readonly keyOf = this.keys.keyOf.bind(this.keys);

  constructor(
    @Inject(MCP_TASKS_OPTIONS) private readonly options: ResolvedOptions,
    private readonly bearer: BearerAuthenticator,
  ) {}

  /**
   * The caller; with `auth`, a request without a valid token for this resource is refused (401). A value when
   * nothing had to be awaited (no auth and no `subject`, a token already verified): no promise on the hot path.
   */
  resolve(req: IncomingMessage): Principal | Promise<Principal> {
    if (this.options.auth) {
      const known = this.bearer.authenticate(req);
      return known instanceof Promise ? known.then((k) => this.authenticated(k)) : this.authenticated(known);
    }
    if (!this.options.subject) return (this.host ??= this.unauthenticated(HOST_SUBJECT));
    return this.subjectOf(req);
  }

  private authenticated({ claims, resource, identity }: Authenticated): Principal {
    return principalFromClaims(claims, this.options.server.name, resource, this.keyOf, identity);
  }

  private async subjectOf(req: IncomingMessage): Promise<Principal> {
    return this.unauthenticated(String(await this.options.subject!(req)));
  }

  /** A caller without a token: a subject with no scopes, its tasks bound to this server only. */
  private unauthenticated(subject: string): Principal {
    return { subject, scopes: [], key: ownerKey(subject, this.options.server.name, '', '') };
  }
}
