/** What a load client asks for, how it drives the task, and the one terminal state that must follow. */
export interface Scenario {
  name: string;
  tool: string;
  args: (n: number) => Record<string, unknown>;
  /**
   * `answer`: answer each question as asked; `cancel-waiting`: cancel at the first question;
   * `cancel`: cancel after `cancelAfterMs`.
   */
  drive: 'answer' | 'decline' | 'cancel-waiting' | 'cancel' | 'none';
  cancelAfterMs?: number;
  expect: {
    status: 'completed' | 'failed' | 'cancelled';
    text?: (n: number) => string;
    isError?: boolean;
    errorCode?: number;
  };
}

/** Each scenario's share of a client's runs. */
export const SCENARIOS: Array<[Scenario, number]> = [
  [
    {
      name: 'answer',
      tool: 'confirm_delete',
      args: (n) => ({ filename: `f${n}.txt` }),
      drive: 'answer',
      expect: { status: 'completed', text: (n) => `Deleted f${n}.txt` },
    },
    4,
  ],
  [
    {
      name: 'decline',
      tool: 'confirm_delete',
      args: (n) => ({ filename: `f${n}.txt` }),
      drive: 'decline',
      expect: { status: 'completed', text: (n) => `Kept f${n}.txt` },
    },
    1,
  ],
  [
    {
      name: 'cancel-waiting',
      tool: 'confirm_delete',
      args: (n) => ({ filename: `f${n}.txt` }),
      drive: 'cancel-waiting',
      expect: { status: 'cancelled' },
    },
    2,
  ],
  [
    {
      name: 'complete',
      tool: 'slow_compute',
      args: (n) => ({ seconds: 0.2 + (n % 5) / 10, label: `r${n}` }),
      drive: 'none',
      expect: { status: 'completed', text: (n) => `Computed r${n} in ${0.2 + (n % 5) / 10}s` },
    },
    3,
  ],
  [
    {
      name: 'cancel-running',
      tool: 'slow_compute',
      args: () => ({ seconds: 60 }),
      drive: 'cancel',
      cancelAfterMs: 150,
      expect: { status: 'cancelled' },
    },
    2,
  ],
  [
    {
      name: 'rounds',
      tool: 'rel_rounds',
      args: () => ({ rounds: 3 }),
      drive: 'answer',
      expect: { status: 'completed', text: () => JSON.stringify({ k0: 'v-k0', k1: 'v-k1', k2: 'v-k2' }) },
    },
    2,
  ],
  [
    {
      name: 'tool-error',
      tool: 'failing_job',
      args: () => ({}),
      drive: 'none',
      expect: { status: 'completed', isError: true, text: () => 'The job failed: the input could not be processed' },
    },
    1,
  ],
  [
    {
      name: 'rpc-error',
      tool: 'protocol_error_job',
      args: () => ({}),
      drive: 'none',
      expect: { status: 'failed', errorCode: -32603 },
    },
    1,
  ],
];

const total = SCENARIOS.reduce((n, [, w]) => n + w, 0);

export function pickScenario(r: number): Scenario {
  let x = r * total;
  for (const [s, w] of SCENARIOS) if ((x -= w) < 0) return s;
  return SCENARIOS[0][0];
}

/** The answer to one question: accept (with the value the tool wants) or decline. */
export function answerFor(key: string, request: any, decline: boolean): Record<string, unknown> {
  if (decline) return { action: 'decline' };
  const props = request?.params?.requestedSchema?.properties ?? {};
  if ('confirm' in props) return { action: 'accept', content: { confirm: true } };
  return { action: 'accept', content: { value: `v-${key}` } };
}

/** Why a terminal task is not what the scenario drove it to, or undefined. */
export function mismatch(s: Scenario, n: number, task: any): string | undefined {
  if (task?.status !== s.expect.status)
    return `ended ${task?.status} (${JSON.stringify(task?.error ?? task?.result ?? '').slice(0, 160)}), expected ${
      s.expect.status
    }`;
  if (s.expect.text && task.result?.content?.[0]?.text !== s.expect.text(n))
    return `result ${JSON.stringify(task.result?.content)} instead of "${s.expect.text(n)}"`;
  if (s.expect.isError !== undefined && !!task.result?.isError !== s.expect.isError)
    return `isError ${task.result?.isError}`;
  if (s.expect.errorCode !== undefined && task.error?.code !== s.expect.errorCode)
    return `error ${JSON.stringify(task.error)}`;
  return undefined;
}
