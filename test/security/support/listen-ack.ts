import type { INestApplication } from '@nestjs/common';
import { listen } from '../../support/listen.js';
import { TASKS, type Target } from './target.js';

const ACK = 'notifications/subscriptions/acknowledged';

/** The task ids `subscriptions/listen` acknowledges to `token`'s caller for `taskIds` (the stream is then closed). */
export async function acknowledged(t: Target, taskIds: string[], token: string): Promise<string[] | undefined> {
  // The helper reads only the port from the app.
  const app = { getHttpServer: () => ({ address: () => ({ port: t.port }) }) } as unknown as INestApplication;
  const stream = await listen(app, { taskIds }, { caps: TASKS, headers: { authorization: `Bearer ${token}` } });
  try {
    const ack = await stream.next((f) => f.method === ACK, 15_000);
    return ack.params?.notifications?.taskIds;
  } catch {
    return undefined;
  } finally {
    stream.close();
  }
}
