import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * Lets through only requests from this machine (the TCP peer is a loopback address), e.g. for a
 * console on a development box. Behind a reverse proxy on the same host every request comes from
 * loopback, so use a real access rule there. The caller is named `local` in the console's log.
 * @publicApi
 */
@Injectable()
export class LoopbackGuard implements CanActivate {
  canActivate(ec: ExecutionContext): boolean {
    const req = ec.switchToHttp().getRequest<IncomingMessage & { user?: unknown }>();
    if (!LOOPBACK.test(req.socket?.remoteAddress ?? ''))
      throw new ForbiddenException('The console answers requests from this machine only');
    req.user ??= { sub: 'local' };
    return true;
  }
}
