import { afterAll, beforeAll } from '@jest/globals';
import { startGatewayOverDemo, type GatewayOverDemo } from './gateway-over-demo.js';
import { connectV1, type V1Options, type V1Connection } from './v1-client.js';

/** A describe block's gateway over the built demo, and the v1 clients its tests connect to it. */
export interface GatewaySuite {
  /** Set once beforeAll has run. */
  readonly g: GatewayOverDemo;
  /** The official v1 client connected to the gateway; closed after the block. */
  connect(options?: V1Options): Promise<V1Connection>;
}

/** Starts the gateway before the block's tests and stops it, with every client they connected, after them. */
export function gatewaySuite(): GatewaySuite {
  let g: GatewayOverDemo | undefined;
  const open: V1Connection[] = [];
  beforeAll(async () => {
    g = await startGatewayOverDemo();
  }, 120_000);
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await g?.stop();
  });
  return {
    get g() {
      if (!g) throw new Error('the gateway is not started (used outside a test?)');
      return g;
    },
    async connect(options) {
      const c = await connectV1(this.g.url, options);
      open.push(c);
      return c;
    },
  };
}
