/**
 * A JSON-RPC error the server answered a raw request with (`McpTasksClient.request`, `listenTasks`): its `code`,
 * `message` and `data`, as sent. Anything else that fails a request (no connection, an HTTP answer without a
 * JSON-RPC response) rejects with the error that caused it.
 * @publicApi
 */
export class McpRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'McpRpcError';
  }
}
