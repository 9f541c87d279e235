import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { RequestClassifier } from './request-classifier.js';

const VERSION = '2026-07-28';
const req = { headers: { 'mcp-protocol-version': VERSION, 'mcp-method': 'tools/call', 'mcp-name': 'greet' } };
const body = (meta: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'greet',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': VERSION,
      'io.modelcontextprotocol/clientCapabilities': {},
      ...meta,
    },
  },
});
const traceparent = () => `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01`;

/** µs a request to classify each of `bodies` on a fresh classifier. */
function batch(bodies: unknown[]): number {
  const classifier = new RequestClassifier();
  const start = performance.now();
  for (const b of bodies) classifier.classify(req as unknown as IncomingMessage, b);
  return ((performance.now() - start) * 1000) / bodies.length;
}

/** Median µs a request of each set of bodies, measured in alternating rounds. */
function costs(sets: unknown[][], rounds = 9): number[] {
  const times = sets.map(() => [] as number[]);
  for (let r = 0; r < rounds; r++) sets.forEach((bodies, i) => times[i].push(batch(bodies)));
  return times.map((t) => t.sort((a, b) => a - b)[rounds >> 1]);
}

describe('RequestClassifier', () => {
  it('requests that differ only in their trace fields are classified as fast as identical ones', () => {
    const trace = () => ({ traceparent: traceparent(), tracestate: 'k=v', baggage: 'a=b' });
    const n = Array.from({ length: 400 });
    const [same, traced] = costs([n.map(() => body({})), n.map(() => body(trace()))]);
    // A fresh `traceparent` (a traced caller, a gateway forwarding with OpenTelemetry on) missed the memo of
    // verdicts and had its envelope checked by the SDK each time: 15-20× the cost of a hit here.
    expect(traced).toBeLessThan(same * 4 + 3);
  });

  it('the verdict does not depend on the trace fields: modern with them, refused envelopes still refused', () => {
    const classifier = new RequestClassifier();
    const ok = body({ traceparent: traceparent() });
    expect(classifier.classify(req as unknown as IncomingMessage, ok)).toMatchObject({ kind: 'modern' });
    const bad = body({ traceparent: traceparent(), 'io.modelcontextprotocol/clientCapabilities': 'none' });
    expect(classifier.classify(req as unknown as IncomingMessage, bad)).not.toMatchObject({ kind: 'modern' });
    const again = body({ traceparent: traceparent(), 'io.modelcontextprotocol/clientCapabilities': 'none' });
    expect(classifier.classify(req as unknown as IncomingMessage, again)).not.toMatchObject({ kind: 'modern' });
  });
});
