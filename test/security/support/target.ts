import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { DEMO_ISSUER } from '../../../src/demo-auth.js';
import { modernRequest, sendRaw, TASKS, type RawReply, type RpcOptions } from '../../reliability/support/http.js';

export { TASKS };

/** Claims of a token the suite mints; every field has a default a legitimate caller would have. */
export interface TokenClaims {
  sub?: string;
  scope?: string;
  client?: string;
  aud?: string;
  iss?: string;
  /** Seconds from now. */
  expiresIn?: number;
  secret?: string;
}

/** A running demo variant under attack: where it listens, how a legitimate token is made, and where verdicts go. */
export class Target {
  readonly host = '127.0.0.1';
  readonly resource: string;

  constructor(
    readonly variant: string,
    readonly port: number,
    readonly secret: string,
    private readonly verdict: (attack: string, ok: boolean, detail?: string) => void,
  ) {
    this.resource = `http://127.0.0.1:${port}/mcp`;
  }

  /** `Host` as a legitimate client sends it. */
  get hostHeader(): string {
    return `127.0.0.1:${this.port}`;
  }

  token(c: TokenClaims = {}): string {
    const claims = { sub: c.sub ?? 'alice', scope: c.scope ?? 'export deploy', azp: c.client ?? 'cli', aud: c.aud };
    return jwt.sign({ ...claims, aud: claims.aud ?? this.resource }, c.secret ?? this.secret, {
      algorithm: 'HS256',
      issuer: c.iss ?? DEMO_ISSUER,
      expiresIn: c.expiresIn ?? 600,
    });
  }

  /** An admin of the console (the demo's console scope). */
  adminToken(): string {
    return this.token({ sub: 'operator', scope: 'mcp:admin', client: 'console' });
  }

  /** A 2026-07-28 request as a correct client sends it, with `token` (unless `null`). */
  rpc(
    method: string,
    params: Record<string, unknown>,
    o: Omit<RpcOptions, 'token'> & { token?: string | null } = {},
  ): Promise<RawReply> {
    const token = o.token === null ? undefined : (o.token ?? this.token());
    return sendRaw(this, modernRequest(method, params, { ...o, token }));
  }

  /** Any HTTP request, with the legitimate `Host` unless `headers` says otherwise. */
  http(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawReply> {
    return sendRaw(this, { method, path, headers: { host: this.hostHeader, ...headers }, body });
  }

  check(attack: string, ok: boolean, detail = ''): boolean {
    this.verdict(attack, ok, detail);
    return ok;
  }
}

/** A secret no other run shares: the demo is told it, and only this suite signs with it. */
export const freshSecret = (): string => randomBytes(32).toString('base64url');

/** `status code message` of a reply, for a verdict's detail. */
export const said = (r: RawReply): string =>
  r.transportError
    ? `no answer (${r.transportError})`
    : `${r.status} ${r.json?.error?.code ?? ''} ${String(r.json?.error?.message ?? r.text.slice(0, 80))}`.trim();
