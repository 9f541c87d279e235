/**
 * The HTTP request and response that carried an MCP request, as the app's platform hands them to a controller
 * (Express's `req`/`res`, Fastify's request/reply; on the fast path Node's own objects, see README). App-wide guards
 * and interceptors read them with `context.switchToHttp()`.
 */
export interface HttpContext {
  req: unknown;
  res: unknown;
}
