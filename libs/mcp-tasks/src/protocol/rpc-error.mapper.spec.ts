import { describe, expect, it, jest } from '@jest/globals';
import { ForbiddenException, HttpException, Logger, ServiceUnavailableException } from '@nestjs/common';
import { RpcCode } from '../mcp-tasks.constants.js';
import { RpcError } from './rpc.error.js';
import { toRpcError } from './rpc-error.mapper.js';

/** What the client reads: the JSON-RPC error and the HTTP status it rides on. */
const answer = (err: RpcError) => ({ error: err.toJSON(), status: err.httpStatus });

describe('toRpcError', () => {
  it('answers an RpcError as thrown, data, status and headers included', () => {
    const thrown = new RpcError(RpcCode.HeaderMismatch, 'Bad Request: x', { a: 1 }, 400, { 'www-authenticate': 'B' });
    expect(toRpcError(thrown)).toBe(thrown);
  });

  it("answers a client-side HttpException with its message and status under -32600 (a guard's refusal)", () => {
    expect(answer(toRpcError(new ForbiddenException('no entry')))).toEqual({
      error: { code: RpcCode.InvalidRequest, message: 'no entry' },
      status: 403,
    });
    expect(answer(toRpcError(new HttpException('slow down', 429)))).toEqual({
      error: { code: RpcCode.InvalidRequest, message: 'slow down' },
      status: 429,
    });
  });

  it("answers a server-side HttpException as a plain internal error, its text not the client's", () => {
    expect(answer(toRpcError(new ServiceUnavailableException('db password wrong')))).toEqual({
      error: { code: RpcCode.InternalError, message: 'Internal error' },
      status: 500,
    });
  });

  it('answers anything else -32603 on a 200, logging its text under what failed', () => {
    const logged: string[] = [];
    const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((m: unknown) => void logged.push(String(m)));
    try {
      expect(answer(toRpcError(new Error('secret: hunter2')))).toEqual({
        error: { code: RpcCode.InternalError, message: 'Internal error' },
        status: 200,
      });
      expect(answer(toRpcError('a string', 'tool call failed')).error.message).toBe('Internal error');
    } finally {
      spy.mockRestore();
    }
    expect(logged[0]).toMatch(/^request failed: Error: secret: hunter2/);
    expect(logged[1]).toBe('tool call failed: a string');
  });
});
