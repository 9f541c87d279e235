/**
 * The HTTP request and response that carried an MCP request, as the app's platform hands them to a controller
 * (Express's `req`/`res`, Fastify's request/reply; on the fast path see docs/existing-app.md, "What runs where").
 * App-wide guards and interceptors read them with `context.switchToHttp()`.
 */
export interface HttpContext {
  req: unknown;
  res: unknown;
  /**
   * Node's own request and response, where reading `req` or `res` first turns them into the platform's (the fast
   * path on Express, which defers that until something may read them: it costs as much as the rest of a
   * `tasks/get`). For the library's own pipelines when none of the app's code runs in them.
   */
  readonly node?: { req: unknown; res: unknown };
}
