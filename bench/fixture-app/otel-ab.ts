import { context, trace, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { subscribe } from 'node:diagnostics_channel';
import { PerformanceObserver } from 'node:perf_hooks';
import { tracerProvider } from './otel-sdk.js';

/** What one set-up used over its windows. */
interface Tally {
  us: number;
  systemUs: number;
  requests: number;
  gcUs: number;
}

/**
 * `MCP_BENCH_AB=sdk-batch,sdk-drop,sdk-off` (the `MCP_BENCH_OTEL` set-ups with spans): every set-up in one process,
 * the one in use switched every `MCP_BENCH_AB_WINDOW` ms (default 500) in a shuffled order, so that the host's
 * swings fall on all of them alike. The library sees one recording provider throughout. Every 5 s, on stderr, per
 * set-up: CPU (user + system) per HTTP request, its system part, and GC pause per request (main thread; the
 * parallel scavenger's helpers and the kernel's page work show up in CPU, not here). For differences between span
 * set-ups only: telemetry off or the context manager alone need a process of their own (telemetry-compare.js).
 */
export function registerOtelAb(spec: string): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const modes = spec.split(',');
  const tracers = modes.map((m) => tracerProvider(m).getTracer('mcp-tasks'));
  let cur = 0;
  const switching: Tracer = {
    startSpan: (name, options, ctx) => tracers[cur].startSpan(name, options, ctx),
    startActiveSpan: ((...args: Parameters<Tracer['startActiveSpan']>) =>
      (tracers[cur].startActiveSpan as (...a: unknown[]) => unknown)(...args)) as Tracer['startActiveSpan'],
  };
  const provider: TracerProvider = { getTracer: () => switching };
  trace.setGlobalTracerProvider(provider);

  let requests = 0;
  subscribe('http.server.request.start', () => requests++);
  let gcUs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcUs += e.duration * 1000;
  }).observe({ entryTypes: ['gc'] });

  const tallies: Tally[] = modes.map(() => ({ us: 0, systemUs: 0, requests: 0, gcUs: 0 }));
  const windowMs = Number(process.env.MCP_BENCH_AB_WINDOW ?? 500);
  let order: number[] = [];
  let last = { cpu: process.cpuUsage(), requests, at: Date.now() };
  let reported = Date.now();
  setInterval(() => {
    const cpu = process.cpuUsage(last.cpu);
    const t = tallies[cur];
    // A window of start-up or of a pause in the load says nothing per request.
    if (requests - last.requests >= 50) {
      t.us += cpu.user + cpu.system;
      t.systemUs += cpu.system;
      t.requests += requests - last.requests;
      t.gcUs += gcUs;
    }
    gcUs = 0;
    if (order.length === 0) order = shuffled(modes.map((_, i) => i));
    cur = order.pop()!;
    last = { cpu: process.cpuUsage(), requests, at: Date.now() };
    if (last.at - reported < 5000) return;
    reported = last.at;
    const per = (x: number, n: number) => (x / Math.max(1, n)).toFixed(1);
    const line = modes.map((m, i) => {
      const x = tallies[i];
      return `${m} ${per(x.us, x.requests)} µs (system ${per(x.systemUs, x.requests)}, gc ${per(x.gcUs, x.requests)})`;
    });
    process.stderr.write(`otel-ab per request: ${line.join(' | ')}\n`);
  }, windowMs).unref();
}

function shuffled(xs: number[]): number[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}
