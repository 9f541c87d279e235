import type { LoopbackClient, Reply } from './http-client.js';
import type { RpcRequest } from './rpc.js';
import { summarize, type LatencySummary } from './stats.js';

export interface LoadSpec {
  client: LoopbackClient;
  path?: string;
  /** Requests in flight at once (each worker waits for its answer before sending again). */
  concurrency: number;
  /** Unmeasured traffic first (JIT, caches, connections). */
  warmupMs: number;
  /** The measured phase stops at this duration or at `maxRequests`, whichever comes first. */
  durationMs: number;
  maxRequests: number;
  /** The request worker `w` sends as its `i`-th. */
  next: (w: number, i: number) => RpcRequest;
  /** Cheap check that an answer is the expected success. */
  ok: (reply: Reply) => boolean;
  /** CPU seconds the server process has used so far, read around the measured phase. */
  serverCpu?: () => number;
  /** The measured phase also stops once this returns true (checked before each request). */
  until?: () => boolean;
  /** Told each measured success: its latency and when it came back (`performance.now()`). */
  onSample?: (ms: number, at: number) => void;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  /** Successful answers per second. */
  rps: number;
  latency: LatencySummary;
  firstError?: string;
  /** CPU the load generator itself used, as a share of one core (near 1.0: the client may be the bottleneck). */
  clientCpu: number;
  /** Server CPU seconds over the measured phase, when `serverCpu` was given. */
  serverCpuSeconds?: number;
}

/** Closed-loop load: `concurrency` workers, bounded in time and count. */
export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  if (spec.warmupMs > 0) await phase(spec, spec.warmupMs, Number.MAX_SAFE_INTEGER, null);
  const samples = new Float64Array(spec.maxRequests);
  const server0 = spec.serverCpu?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await phase(spec, spec.durationMs, spec.maxRequests, samples);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server1 = spec.serverCpu?.();
  const ok = r.done - r.errors;
  return {
    requests: r.done,
    errors: r.errors,
    seconds,
    rps: ok / seconds,
    latency: summarize(samples, r.recorded),
    firstError: r.firstError,
    clientCpu: (cpu.user + cpu.system) / 1e6 / seconds,
    serverCpuSeconds: server0 === undefined || server1 === undefined ? undefined : server1 - server0,
  };
}

async function phase(spec: LoadSpec, durationMs: number, max: number, samples: Float64Array | null) {
  const path = spec.path ?? '/mcp';
  const end = performance.now() + durationMs;
  const state = { started: 0, done: 0, errors: 0, recorded: 0, firstError: undefined as string | undefined };
  const worker = async (w: number) => {
    for (let i = 0; performance.now() < end && state.started < max && !spec.until?.(); i++) {
      state.started++;
      const req = spec.next(w, i);
      try {
        const reply = await spec.client.post(path, req.headers, req.body);
        if (spec.ok(reply)) {
          if (samples) {
            samples[state.recorded++] = reply.ms;
            spec.onSample?.(reply.ms, performance.now());
          }
        } else {
          state.errors++;
          state.firstError ??= `HTTP ${reply.status}: ${reply.body.slice(0, 200)}`;
        }
      } catch (err) {
        state.errors++;
        state.firstError ??= (err as Error).message;
      }
      state.done++;
      // A dead server: stop hammering it.
      if (state.errors > 200 && state.errors > state.done / 2) break;
    }
  };
  await Promise.all(Array.from({ length: spec.concurrency }, (_, w) => worker(w)));
  return state;
}
