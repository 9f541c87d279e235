/** A JSON-RPC response as it arrives on the wire. */
export interface JsonRpcReply {
  id?: string | number;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
}

/** `readJsonRpcText` on a `fetch` response. */
export async function readJsonRpcReply(res: Response, id: string): Promise<JsonRpcReply | undefined> {
  return readJsonRpcText(res.headers.get('content-type') ?? '', await res.text(), id);
}

/**
 * Reads the JSON-RPC response with `id` from an HTTP body (`text`, of content type `type`) that is either
 * `application/json` or a finite `text/event-stream` (a POST answered over SSE ends after its response; earlier
 * events are notifications such as progress, which nothing here needs). `undefined` when there is none.
 */
export function readJsonRpcText(type: string, text: string, id: string): JsonRpcReply | undefined {
  if (type.startsWith('application/json')) return text ? (JSON.parse(text) as JsonRpcReply) : undefined;
  if (!type.startsWith('text/event-stream')) return undefined;
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (!data) continue;
    const message = JSON.parse(data) as JsonRpcReply;
    if (message.id === id) return message;
  }
  return undefined;
}
