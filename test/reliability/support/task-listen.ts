import { request, type ClientRequest } from 'node:http';
import { modernRequest, TASKS, type Target } from './http.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/**
 * One `subscriptions/listen` naming tasks, held open over its own connection: when each task's final status
 * arrived (the first `notifications/tasks` with a terminal status), and anything else the stream said.
 */
export class TaskListen {
  /** Task ids the acknowledgement named. */
  acknowledged: string[] = [];
  /** When the acknowledgement came: a task already final then is not notified (the listen read it so). */
  acknowledgedAt = Infinity;
  readonly finals = new Map<string, { at: number; status: string }>();
  /** Set when the stream ended or failed before `close()` (with why). */
  endedEarly?: string;
  private req?: ClientRequest;
  private closed = false;

  private constructor(readonly taskIds: string[]) {}

  /** Opens it on `target` as the owner of `token`; resolves once acknowledged (or rejects with what came instead). */
  static open(target: Target, taskIds: string[], token?: string, timeoutMs = 30_000): Promise<TaskListen> {
    const listen = new TaskListen(taskIds);
    const raw = modernRequest('subscriptions/listen', { notifications: { taskIds } }, { caps: TASKS, token });
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('listen not acknowledged in time')), timeoutMs);
      const req = request(
        { host: target.host, port: target.port, path: '/mcp', method: 'POST', headers: raw.headers, agent: false },
        (res) => {
          let buf = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            buf += chunk;
            for (let i; (i = buf.indexOf('\n\n')) >= 0;) {
              const data = buf
                .slice(0, i)
                .split('\n')
                .filter((l) => l.startsWith('data: '))
                .map((l) => l.slice(6))
                .join('');
              buf = buf.slice(i + 2);
              if (!data) continue;
              const frame = JSON.parse(data);
              if (frame.method === 'notifications/subscriptions/acknowledged') {
                listen.acknowledged = frame.params?.notifications?.taskIds ?? [];
                listen.acknowledgedAt = Date.now();
                clearTimeout(timer);
                resolve(listen);
              } else listen.frame(frame);
            }
          });
          res.on('end', () => listen.end(`ended (HTTP ${res.statusCode}): ${buf.slice(0, 200)}`, reject));
          res.on('error', (e) => listen.end(e.message, reject));
        },
      );
      req.on('error', (e) => listen.end(e.message, reject));
      req.end(raw.body);
      listen.req = req;
    });
  }

  close(): void {
    this.closed = true;
    this.req?.destroy();
  }

  private frame(frame: any): void {
    const task = frame.method === 'notifications/tasks' ? frame.params : undefined;
    if (task && TERMINAL.has(task.status) && !this.finals.has(task.taskId))
      this.finals.set(task.taskId, { at: Date.now(), status: task.status });
  }

  private end(why: string, reject: (e: Error) => void): void {
    if (this.closed) return;
    this.endedEarly ??= why;
    reject(new Error(why));
  }
}
