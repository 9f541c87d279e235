import { RpcError } from '../protocol/rpc.error.js';
import type { TaskCursor } from '../store/task-queries.interface.js';
import { ownerDigest } from '../owner/owner-key.js';
import { SealedToken } from './sealed-token.js';

interface CursorPayload {
  own: string;
  /** The session scope the page was listed for (`null`: none, `'*'`: any). */
  s: string | null;
  t: number;
  i: string;
}

/** 2025-11-25 `tasks/list` cursors: the last listed place, sealed and bound to the lister and their session scope. */
export class ListCursorCodec {
  private readonly tokens: SealedToken<CursorPayload>;

  constructor(secret: Buffer) {
    this.tokens = new SealedToken(secret, 'c1');
  }

  seal(after: TaskCursor, owner: string, session: string | null | undefined): string {
    return this.tokens.seal({
      own: ownerDigest(owner),
      s: session === undefined ? '*' : session,
      t: after.createdAt,
      i: after.id,
    });
  }

  /** Where the next page starts; `-32602` for a cursor that is not one of ours for this lister. */
  open(cursor: unknown, owner: string, session: string | null | undefined): TaskCursor {
    const p = this.tokens.open(cursor);
    const scope = session === undefined ? '*' : session;
    if (!p || p.own !== ownerDigest(owner) || p.s !== scope || typeof p.t !== 'number' || typeof p.i !== 'string') {
      throw RpcError.invalidParams('Invalid cursor');
    }
    return { createdAt: p.t, id: p.i };
  }
}
