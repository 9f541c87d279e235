import type { HttpContext } from '../common/http-context.interface.js';

/**
 * The HTTP request and response a later attempt of a resumable task runs with: no HTTP exchange carries it (the one
 * that carried the call is gone, with its instance), so its pipeline gets stand-ins shaped as what a task run saw —
 * the request a plain `POST` to the MCP path with no headers and the `tools/call` as its body, the response one
 * already sent. What an interceptor reads with `switchToHttp()` then: `method`, `url`, `originalUrl`, `path`,
 * `headers` (`{}`), `body`, `params` and `query` (`{}`); `@Req()` is this object, `@Headers()` `{}`, `@Ip()`
 * `undefined`. A request-scoped provider gets it as `REQUEST`.
 */
export function resumedHttp(path: string, id: string | number, name: string, args: object): HttpContext {
  const body = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
  return {
    req: { method: 'POST', url: path, originalUrl: path, path, headers: {}, body, params: {}, query: {} },
    res: { statusCode: 200, headersSent: true, writableEnded: true },
  };
}
