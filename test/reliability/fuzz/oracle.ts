import type { RawReply } from '../support/http.js';
import { outcomeOf, type FuzzCase } from './case.js';

/** Server internals that must never reach a client (a stack frame is `at fn (file:line:col)`, not prose). */
const LEAK = new RegExp(
  [
    /node_modules|\/work\//.source,
    /\bat [\w.$<>]+ \([^)]*:\d+:\d+\)/.source,
    /RangeError|Maximum call stack|QueryFailedError|invalid byte sequence/.source,
  ].join('|'),
);

/** Why the answer to `c` is wrong, or undefined when it is right. */
export function judge(c: FuzzCase, r: RawReply): string | undefined {
  const outcome = outcomeOf(r);
  // A server may answer 413 and close before a multi-megabyte body is sent: the sender then sees the close.
  if (r.status === undefined && c.allow.includes('closed') && /EPIPE|ECONNRESET/.test(r.transportError ?? ''))
    return undefined;
  if (r.status === undefined) return `no HTTP answer (${r.transportError})`;
  if (r.status >= 500) return `HTTP ${r.status}: ${r.text.slice(0, 200)}`;
  if (LEAK.test(r.text)) return `server internals on the wire: ${r.text.slice(0, 300)}`;
  const [, code] = outcome.split(':');
  const isError = /^-?\d+$/.test(code);
  const allowed = c.allow.includes(outcome) || (isError && c.allow.includes(`${r.status}:*`));
  if (!allowed) return `got ${outcome} (${r.text.slice(0, 200)}), expected ${c.allow.join(' or ')}`;
  if (!r.text) return undefined;
  const j = r.json;
  if (!j || typeof j !== 'object' || j.jsonrpc !== '2.0' || !('id' in j) || 'result' in j === 'error' in j)
    return `not a JSON-RPC response: ${r.text.slice(0, 200)}`;
  if (isError && (!Number.isInteger(j.error.code) || typeof j.error.message !== 'string'))
    return `malformed error object: ${JSON.stringify(j.error)}`;
  if (j.id !== null && j.id !== c.id)
    return `answered id ${JSON.stringify(j.id)} to a request with id ${JSON.stringify(c.id)}`;
  if (c.id !== null && r.status === 200 && j.id !== c.id)
    return `answered id ${JSON.stringify(j.id)} instead of ${JSON.stringify(c.id)}`;
  if (isError && c.message && !c.message.test(j.error.message))
    return `message "${j.error.message}" does not match ${c.message}`;
  if (c.toolError && 'result' in j && !isToolError(j.result, c.toolError))
    return `not a tool error result matching ${c.toolError}: ${JSON.stringify(j.result).slice(0, 300)}`;
  if (r.status === 401 && !String(r.headers['www-authenticate'] ?? '').startsWith('Bearer '))
    return '401 without a Bearer challenge';
  return undefined;
}

/** `result` is `isError: true` with one text block matching `text`. */
function isToolError(result: any, text: RegExp): boolean {
  const content = result?.content;
  return (
    result?.isError === true &&
    Array.isArray(content) &&
    content.length === 1 &&
    content[0]?.type === 'text' &&
    text.test(content[0].text)
  );
}

/** A failure, shown so it can be replayed by hand. */
export function repro(c: FuzzCase, r: RawReply, why: string): string {
  const body = c.raw.body === undefined ? '' : String(c.raw.body);
  const shown = body.length > 400 ? `${body.slice(0, 200)}…(${body.length} chars)…${body.slice(-100)}` : body;
  const request = `${c.raw.method ?? 'POST'} headers=${JSON.stringify(c.raw.headers)} body=${shown}`;
  return `${c.category}: ${why}\n      request: ${request}\n      response: ${r.status} ${r.text.slice(0, 300)}`;
}
