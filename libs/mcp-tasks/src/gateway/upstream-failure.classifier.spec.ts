import { describe, expect, it } from '@jest/globals';
import * as client from '@mcp-tasks/client';
import { McpRpcError } from '@mcp-tasks/client';
import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/server';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UpstreamAnsweredError } from './upstream-answered.error.js';
import { upstreamFailure } from './upstream-failure.classifier.js';
import { UpstreamUnreachableError } from './upstream-unreachable.error.js';

/** The 401/403 errors of newer clients (`McpAuthError`, `UnauthorizedError`), when this one has them. */
const auth = client as unknown as {
  McpAuthError?: { [Symbol.hasInstance](value: unknown): boolean };
  UnauthorizedError?: new (refusal: { description: string; scopes: string[]; code?: number }) => Error;
};
const classes = { McpRpcError, McpAuthError: auth.McpAuthError };
const classify = (err: unknown, deadlinePassed = false) => upstreamFailure('files', err, classes, deadlinePassed);

describe('upstreamFailure: the upstream answered, or it is unreachable — by the class of the error', () => {
  it('a JSON-RPC error response (raw request, SDK session) is the answer, -32001/-32000 included', () => {
    for (const err of [
      new McpRpcError(-32001, 'Request timed out', { at: 'upstream' }),
      new ProtocolError(-32000, 'Connection closed'),
    ]) {
      const failure = classify(err);
      expect(failure).toBeInstanceOf(UpstreamAnsweredError);
      expect(failure).toMatchObject({ code: err.code, message: err.message, data: err.data });
    }
  });

  (auth.UnauthorizedError ? it : it.skip)('a 401/403 is the answer when it carried a JSON-RPC error', () => {
    const Refusal = auth.UnauthorizedError!;
    const answered = classify(new Refusal({ description: 'expired', scopes: [], code: -32600 }));
    expect(answered).toBeInstanceOf(UpstreamAnsweredError);
    expect(answered).toMatchObject({ code: -32600 });
    expect(classify(new Refusal({ description: 'HTTP 401', scopes: [] }))).toBeInstanceOf(UpstreamUnreachableError);
  });

  it("what an SDK raises by itself is unreachable, whatever its code: the 1.x SDK's McpError included", () => {
    const v1 = new McpError(ErrorCode.RequestTimeout, 'Request timed out');
    expect(v1.message).toBe('MCP error -32001: Request timed out');
    for (const err of [
      v1,
      new McpError(ErrorCode.ConnectionClosed, 'Connection closed'),
      new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'),
      new SdkError(SdkErrorCode.SendFailed, 'fetch failed'),
      new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 10.0.0.7:443') }),
      'not even an error',
    ]) {
      const failure = classify(err);
      expect(failure).toBeInstanceOf(UpstreamUnreachableError);
      expect((failure as UpstreamUnreachableError).toRpcError()).toMatchObject({
        code: -32603,
        message: 'Upstream "files" is unreachable; try again later',
      });
    }
  });

  it('timed out: our deadline passed, or the SDK timed the request out (the connection may be fine)', () => {
    expect(classify(new DOMException('signal timed out', 'TimeoutError'), true)).toMatchObject({ timedOut: true });
    expect(classify(new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out'))).toMatchObject({ timedOut: true });
    expect(classify(new McpError(ErrorCode.RequestTimeout, 'Request timed out'))).toMatchObject({ timedOut: false });
    expect(classify(new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed'))).toMatchObject({
      timedOut: false,
    });
  });
});
