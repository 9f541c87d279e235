import { setTimeout as sleep } from 'node:timers/promises';
import { rpc, type RawReply, type RpcOptions } from './http.js';
import type { DemoProcess } from './demo-process.js';
import type { PhaseTally } from './tally.js';

/**
 * What a load balancer in front of a cluster does, for a rolling deploy: each request goes to a random instance in
 * rotation; an instance is taken out of rotation before it is stopped (as Kubernetes takes a terminating pod out of
 * its Service's endpoints) and its requests in flight are let finish; a replacement joins once healthy.
 */
export class Rotation {
  /** Requests retried on another instance after a refused connection (see `send`). */
  retried = 0;
  private readonly members: DemoProcess[];
  private readonly inFlight = new Map<DemoProcess, number>();

  constructor(members: DemoProcess[]) {
    this.members = [...members];
  }

  get size(): number {
    return this.members.length;
  }

  add(instance: DemoProcess): void {
    this.members.push(instance);
  }

  /** Out of rotation at once; resolves when its requests in flight have their answers (at most `maxMs`). */
  async remove(instance: DemoProcess, maxMs: number): Promise<{ drainedMs: number; stillInFlight: number }> {
    this.members.splice(this.members.indexOf(instance), 1);
    const started = Date.now();
    while ((this.inFlight.get(instance) ?? 0) > 0 && Date.now() - started < maxMs) await sleep(20);
    return { drainedMs: Date.now() - started, stillInFlight: this.inFlight.get(instance) ?? 0 };
  }

  /**
   * One request through the balancer. Retried on another instance only when the connection to the one chosen was
   * refused after it left rotation: the request never reached it, and a load balancer retries such a connect failure
   * on the next upstream for any method (nginx `proxy_next_upstream error`, Envoy `connect-failure`). Nothing else
   * is retried: any other transport error, any HTTP status and any JSON-RPC error reaches the client as it came.
   */
  async send(tally: PhaseTally, method: string, params: Record<string, unknown>, o: RpcOptions): Promise<RawReply> {
    for (let tries = 1; ; tries++) {
      const target = this.members[Math.floor(Math.random() * this.members.length)];
      this.inFlight.set(target, (this.inFlight.get(target) ?? 0) + 1);
      let reply: RawReply;
      try {
        reply = await rpc(target, tally, method, params, o);
      } finally {
        this.inFlight.set(target, this.inFlight.get(target)! - 1);
      }
      const refused = /ECONNREFUSED/.test(reply.transportError ?? '');
      if (!refused || this.members.includes(target) || tries >= 3) return reply;
      this.retried++;
    }
  }
}
