import { describe, expect, it } from '@jest/globals';
import { ForbiddenException } from '@nestjs/common';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host.js';
import { LoopbackGuard } from './loopback.guard.js';

const contextFrom = (remoteAddress: string | undefined, user?: unknown) => {
  const req = { socket: { remoteAddress }, user } as Record<string, unknown>;
  return { req, ec: new ExecutionContextHost([req, {}, () => undefined]) };
};

describe('LoopbackGuard', () => {
  it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])('lets %s through, as "local"', (address) => {
    const { req, ec } = contextFrom(address);
    expect(new LoopbackGuard().canActivate(ec)).toBe(true);
    expect(req.user).toEqual({ sub: 'local' });
  });

  it('keeps a user another guard already set', () => {
    const { req, ec } = contextFrom('127.0.0.1', { sub: 'sso-user' });
    new LoopbackGuard().canActivate(ec);
    expect(req.user).toEqual({ sub: 'sso-user' });
  });

  it.each(['10.0.0.5', '192.168.1.2', '::ffff:192.168.1.2', '2001:db8::1', '128.0.0.1', '', undefined])(
    'refuses %s with 403',
    (address) => {
      const { req, ec } = contextFrom(address);
      expect(() => new LoopbackGuard().canActivate(ec)).toThrow(ForbiddenException);
      expect(() => new LoopbackGuard().canActivate(ec)).toThrow('The console answers requests from this machine only');
      expect(req.user).toBeUndefined();
    },
  );
});
