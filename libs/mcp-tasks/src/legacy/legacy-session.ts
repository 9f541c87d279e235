import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { MCP_TASKS_OPTIONS } from '../mcp-tasks.constants.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { ownerDigest } from '../owner/owner-key.js';
import { SESSION_HEADER } from './legacy.constants.js';
import { SealedToken } from './sealed-token.js';
import { sessionNotFound } from './transport.error.js';

/** A 2025-era session as its `Mcp-Session-Id` carries it: nothing of it is kept on the server. */
export interface LegacySession {
  /** The session's own id (random): what binds tasks and routes their input. */
  id: string;
  /** The version `initialize` settled on. */
  protocolVersion: string;
  /** The input capabilities the client declared (`elicitation`, `sampling`, `roots`). */
  clientCapabilities: Record<string, unknown>;
  clientInfo?: { name: string; version: string };
}

interface SessionPayload {
  sid: string;
  own: string;
  pv: string;
  caps: Record<string, unknown>;
  ci?: { name: string; version: string };
}

/** Tokens over this size drop the client's name first. */
const MAX_TOKEN = 2048;

/**
 * `Mcp-Session-Id` values: sealed with `requestStateSecret`, so any instance sharing it accepts them and no
 * instance keeps a session table, and bound to the owner key of the request that opened the session (a token used
 * under another identity is unknown). A session has no end on the server: `DELETE` is 405, which the spec allows.
 */
@Injectable()
export class LegacySessions {
  private readonly tokens: SealedToken<SessionPayload>;

  constructor(@Inject(MCP_TASKS_OPTIONS) options: ResolvedOptions) {
    this.tokens = new SealedToken(options.requestStateSecret, 's1');
  }

  /** A new session for `owner`, and its `Mcp-Session-Id`. */
  open(protocolVersion: string, capabilities: unknown, clientInfo: unknown, owner: string): [LegacySession, string] {
    const session: LegacySession = {
      id: randomBytes(16).toString('base64url'),
      protocolVersion,
      clientCapabilities: inputCapabilities(capabilities),
      clientInfo: clientInfoOf(clientInfo),
    };
    const payload = { sid: session.id, own: ownerDigest(owner), pv: protocolVersion, caps: session.clientCapabilities };
    let token = this.tokens.seal(session.clientInfo ? { ...payload, ci: session.clientInfo } : payload);
    if (token.length > MAX_TOKEN) {
      delete session.clientInfo;
      token = this.tokens.seal(payload);
    }
    return [session, token];
  }

  /** The session a request names (none without the header); 404 for a token that is not one `owner` opened here. */
  of(req: IncomingMessage, owner: string): LegacySession | undefined {
    const token = req.headers[SESSION_HEADER];
    if (token === undefined) return undefined;
    const p = this.tokens.open(token);
    if (!p || p.own !== ownerDigest(owner) || typeof p.sid !== 'string' || typeof p.pv !== 'string') {
      throw sessionNotFound();
    }
    return { id: p.sid, protocolVersion: p.pv, clientCapabilities: p.caps ?? {}, clientInfo: p.ci };
  }
}

const object = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** Only the capabilities a tool's input needs, each reduced to its known keys. */
function inputCapabilities(capabilities: unknown): Record<string, unknown> {
  const caps = object(capabilities) ?? {};
  const pick = (name: string, keys: string[]) => {
    const cap = object(caps[name]);
    const kept = keys.filter((k) => cap?.[k] !== undefined);
    return cap && [name, Object.fromEntries(kept.map((k) => [k, typeof cap[k] === 'boolean' ? cap[k] : {}]))];
  };
  const known = [
    pick('elicitation', ['form', 'url']),
    pick('sampling', ['context', 'tools']),
    pick('roots', ['listChanged']),
  ];
  return Object.fromEntries(known.filter((e) => !!e) as [string, unknown][]);
}

function clientInfoOf(info: unknown): LegacySession['clientInfo'] {
  const i = object(info);
  if (typeof i?.name !== 'string' || typeof i.version !== 'string') return undefined;
  return { name: i.name.slice(0, 200), version: i.version.slice(0, 200) };
}
