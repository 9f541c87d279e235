/** Response headers of an SSE stream: never cached, never buffered by a proxy. */
export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;

/** One JSON-RPC message as an SSE event. */
export const sseMessage = (message: Record<string, unknown>): string =>
  `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', ...message })}\n\n`;
