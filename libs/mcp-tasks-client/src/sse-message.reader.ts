/**
 * The JSON messages of a `text/event-stream` body as they arrive (each event's `data:` lines joined); ends with
 * the body. Events without data (keep-alive comments) are skipped.
 */
export async function* sseMessages(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: RegExpExecArray | null;
    while ((end = /\r?\n\r?\n/.exec(buffer))) {
      const block = buffer.slice(0, end.index);
      buffer = buffer.slice(end.index + end[0].length);
      const data = block
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (data) yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}
