import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';

/** Where the access guard leaves who the request is, for the handlers' log lines. */
const ACTOR = Symbol('mcp-console-actor');

type WithActor = IncomingMessage & { [ACTOR]?: string; user?: unknown };

export const setActor = (req: IncomingMessage, actor: string): void => void ((req as WithActor)[ACTOR] = actor);

/** `@Actor()`: who made this console request, as the access guard found out. */
export const Actor = createParamDecorator(
  (_: unknown, ec: ExecutionContext): string => ec.switchToHttp().getRequest<WithActor>()[ACTOR] ?? 'unknown',
);

/** A readable name from a guard's `req.user` (passport and most auth guards set one). */
export function userName(user: unknown): string | undefined {
  if (typeof user === 'string' && user) return user;
  if (!user || typeof user !== 'object') return undefined;
  const u = user as Record<string, unknown>;
  for (const v of [u.sub, u.id, u.username, u.name, u.email]) {
    if (typeof v === 'string' && v !== '') return v;
    if (typeof v === 'number') return String(v);
  }
  return undefined;
}
