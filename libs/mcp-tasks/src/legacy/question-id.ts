import { ownerDigest } from '../owner/owner-key.js';
import type { InputRequest } from '../protocol/wire.interface.js';
import { SealedToken } from './sealed-token.js';

/** The kind (and so the prefix, `mcp-tasks/q.`) of the ids of questions asked during a call. */
export const QUESTION_ID_KIND = 'mcp-tasks/q';

/** What a question's id carries: enough for any instance to check and route the answer, nothing to look up. */
export interface QuestionTarget {
  /** The run's random id (unguessable; never a task's). */
  run: string;
  key: string;
  method: InputRequest['method'];
  /** Digest of the caller's owner key: only that caller's answer is taken. */
  owner: string;
  /** The caller's 2025-era session, if any: only an answer in that session is taken. */
  session?: string;
}

interface Payload {
  r: string;
  k: string;
  m: InputRequest['method'];
  o: string;
  s?: string;
}

/**
 * JSON-RPC ids of the requests a call running in the request sends its client (`elicitation/create`, …): sealed
 * with `requestStateSecret`, so the answer — POSTed to any instance sharing it, carrying nothing else — is checked
 * (same caller, same session, a result of the asked method's shape) where it lands, then sent to the run.
 */
export class QuestionIds {
  private readonly tokens: SealedToken<Payload>;

  constructor(secret: Buffer) {
    this.tokens = new SealedToken(secret, QUESTION_ID_KIND);
  }

  mint(q: Omit<QuestionTarget, 'owner'> & { ownerKey: string }): string {
    const payload: Payload = { r: q.run, k: q.key, m: q.method, o: ownerDigest(q.ownerKey) };
    return this.tokens.seal(q.session === undefined ? payload : { ...payload, s: q.session });
  }

  /** What `id` names, when this secret sealed it. */
  open(id: unknown): QuestionTarget | undefined {
    const p = this.tokens.open(id);
    if (!p || typeof p.r !== 'string' || typeof p.k !== 'string' || typeof p.o !== 'string') return undefined;
    return { run: p.r, key: p.k, method: p.m, owner: p.o, ...(typeof p.s === 'string' ? { session: p.s } : {}) };
  }
}

/** Whether `id` has the form of a question's id (what lets its answer past the body check, to be opened later). */
export const isQuestionId = (id: unknown): boolean => typeof id === 'string' && id.startsWith(`${QUESTION_ID_KIND}.`);
