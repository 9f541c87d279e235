import type { Identity } from './claims-principal.js';

/** Who a request's token says the caller is, for this resource. */
export interface Authenticated {
  /** The claims: the module's own strategy's, or an app strategy's user over its token's. */
  claims: Record<string, unknown>;
  /** The audience that matched this resource (part of the owner key). */
  resource: string;
  /** Subject, scopes and OAuth client: read from the claims, or given by `auth.principal`. */
  identity: Identity;
}
