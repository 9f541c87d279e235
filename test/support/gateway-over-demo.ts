import type { INestApplication } from '@nestjs/common';
import { createGatewayApp } from '../fixtures/gateway-app.js';
import { startDemoProcess, textOf, type DemoProcess } from './demo-process.js';
import { rpc } from './mcp-request.js';
import { until } from './until.js';

/** The built demo as upstream `upstream`, a gateway app in front of it, and the gateway's MCP endpoint. */
export interface GatewayOverDemo {
  upstream: DemoProcess;
  gateway: INestApplication;
  url: URL;
  /** The upstream task id behind a countdown run, found by its label in the upstream's `countdown_log`. */
  upstreamTaskOf(run: string): Promise<string>;
  /** The upstream's `countdown_log`. */
  countdownLog(): Promise<string>;
  stop(): Promise<void>;
}

export async function startGatewayOverDemo(): Promise<GatewayOverDemo> {
  const upstream = await startDemoProcess({ MCP_POLL_INTERVAL: '200' });
  const gateway = await createGatewayApp([{ name: 'upstream', url: upstream.url }]);
  await until('the upstream tools listed', async () => {
    const { body } = await rpc(gateway, 'tools/list');
    return body.result?.tools?.some((t: { name: string }) => t.name === 'upstream_countdown');
  });
  const { port } = gateway.getHttpServer().address() as { port: number };
  const countdownLog = () => textOf(upstream.client, 'countdown_log');
  return {
    upstream,
    gateway,
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    countdownLog,
    async upstreamTaskOf(run) {
      const line = await until(`countdown ${run} in the upstream's log`, async () =>
        (await countdownLog()).split('\n').find((l) => l.startsWith(`${run} `)),
      );
      return /\(task ([\w-]+)\)/.exec(line)![1];
    },
    async stop() {
      await gateway.close();
      await upstream.stop();
    },
  };
}
