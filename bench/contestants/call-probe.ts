// Preloaded into a contestant (`node --import`) by `gateway-compare --probe`: where a call's time goes inside one
// process. From Node's HTTP diagnostics channels: each `tools/call` served (request headers in → answer finished),
// each one it sent (request created → its socket → the answer's headers back), whether that socket was new, how many
// sockets it used and how many requests waited for one; the event loop's delay and the process's share of a core.
// SIGWINCH (Nest's shutdown hooks take SIGUSR2) writes the figures since the last one to
// `<BENCH_PROBE>/<pid>.json` and starts again. The `before`/`after` split holds with one call in flight only.
import { subscribe } from 'node:diagnostics_channel';
import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.BENCH_PROBE;
const TOOLS_CALL = 'tools/call';

interface Window {
  served: number[];
  sent: number[];
  /** One call in flight only: served → sent upstream, and the answer back → answered. */
  before: number[];
  after: number[];
  waited: number[];
  fresh: number;
  sockets: WeakSet<object>;
  socketCount: number;
  queuedMax: number;
  cpu: NodeJS.CpuUsage;
  t0: number;
}
const fresh = (): Window => ({
  served: [],
  sent: [],
  before: [],
  after: [],
  waited: [],
  fresh: 0,
  sockets: new WeakSet(),
  socketCount: 0,
  queuedMax: 0,
  cpu: process.cpuUsage(),
  t0: performance.now(),
});
let w = fresh();
const loop = monitorEventLoopDelay({ resolution: 1 });
loop.enable();
const started = new WeakMap<object, number>();
const last = { served: 0, answered: 0 };

subscribe('http.server.request.start', (m) => {
  const { request } = m as { request: IncomingMessage };
  if (request.headers['mcp-method'] === TOOLS_CALL) started.set(request, (last.served = performance.now()));
});
subscribe('http.server.response.finish', (m) => {
  const { request } = m as { request: IncomingMessage; response: ServerResponse };
  const t = started.get(request);
  if (t === undefined) return;
  const now = performance.now();
  w.served.push(now - t);
  if (last.answered > t) w.after.push(now - last.answered);
});
// A request is created (and given to its agent) before its body is written; the diagnostics channel's start comes
// only once it has been sent, its socket long assigned: the agent is where a request can wait for a socket.
type AddRequest = (this: Agent, req: ClientRequest, o: unknown) => void;
const proto = Agent.prototype as Agent & { addRequest: AddRequest };
const addRequest = proto.addRequest;
proto.addRequest = function (this: Agent, request: ClientRequest, o: unknown) {
  const t = performance.now();
  if (request.getHeader('mcp-method') === TOOLS_CALL) {
    started.set(request, t);
    if (last.served) w.before.push(t - last.served);
    const window = w;
    request.once('socket', (socket) => {
      window.waited.push(performance.now() - t);
      if (!window.sockets.has(socket)) {
        window.sockets.add(socket);
        window.socketCount++;
      }
      if (!request.reusedSocket) window.fresh++;
    });
  }
  addRequest.call(this, request, o);
  const queued = Object.values(this.requests).reduce((n: number, q) => n + (q?.length ?? 0), 0);
  w.queuedMax = Math.max(w.queuedMax, queued);
};
subscribe('http.client.response.finish', (m) => {
  const { request } = m as { request: ClientRequest };
  const t = started.get(request);
  if (t !== undefined) w.sent.push((last.answered = performance.now()) - t);
});

const p = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? Number(s[Math.min(s.length - 1, Math.floor(q * s.length))].toFixed(3)) : null;
};
process.on('SIGWINCH', () => {
  const cpu = process.cpuUsage(w.cpu);
  const seconds = (performance.now() - w.t0) / 1000;
  const figures = {
    served: { n: w.served.length, p50: p(w.served, 0.5), p90: p(w.served, 0.9) },
    sent: { n: w.sent.length, p50: p(w.sent, 0.5), p90: p(w.sent, 0.9) },
    socketWait: { p50: p(w.waited, 0.5), p90: p(w.waited, 0.9), max: p(w.waited, 1) },
    newSockets: w.fresh,
    socketsUsed: w.socketCount,
    queuedMax: w.queuedMax,
    loopDelay: { p50: loop.percentile(50) / 1e6, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    before: p(w.before, 0.5),
    after: p(w.after, 0.5),
    core: (cpu.user + cpu.system) / 1e6 / seconds,
    /** µs of CPU per call served: user, system. */
    user: w.served.length ? cpu.user / w.served.length : null,
    system: w.served.length ? cpu.system / w.served.length : null,
  };
  if (dir) writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(figures));
  loop.reset();
  w = fresh();
});
