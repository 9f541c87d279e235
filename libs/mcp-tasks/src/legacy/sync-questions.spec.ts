import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { TaskEvent, TaskEventBus } from '../events/task-event-bus.interface.js';
import type { ResolvedOptions } from '../options/resolved-options.interface.js';
import { FOLLOW_WAIT_MS, SyncQuestions } from './sync-questions.js';

const options = { requestStateSecret: Buffer.from('a-secret-of-enough-length') } as ResolvedOptions;

/** A targeting bus whose follows take effect when the test says (`activate`), or never. */
function busWithFollows() {
  const pending: (() => void)[] = [];
  const bus = {
    subscribe: () => () => {},
    publish: async () => {},
    follow: (_topic: string, onActive?: () => void) => {
      if (onActive) pending.push(onActive);
      return () => {};
    },
  } as unknown as TaskEventBus;
  return { bus, activate: () => pending.splice(0).forEach((f) => f()) };
}

describe('SyncQuestions.wait', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('asks once the follow of the run is in effect, and only once', () => {
    const { bus, activate } = busWithFollows();
    const asked: string[] = [];
    new SyncQuestions(options, bus).wait(
      'q1',
      'run-1',
      () => {},
      () => asked.push('q1'),
    );
    expect(asked).toEqual([]);
    activate();
    expect(asked).toEqual(['q1']);
    jest.advanceTimersByTime(FOLLOW_WAIT_MS * 2);
    expect(asked).toEqual(['q1']);
  });

  it('asks after FOLLOW_WAIT_MS when the follow never takes effect; an answer here settles it', async () => {
    const { bus } = busWithFollows();
    const questions = new SyncQuestions(options, bus);
    const asked: string[] = [];
    const answers: unknown[] = [];
    questions.wait(
      'q2',
      'run-2',
      (a) => answers.push(a),
      () => asked.push('q2'),
    );
    jest.advanceTimersByTime(FOLLOW_WAIT_MS - 1);
    expect(asked).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(asked).toEqual(['q2']);
    await questions.deliver('q2', 'run-2', { result: { action: 'accept', content: { ok: true } } });
    expect(answers).toEqual([{ result: { action: 'accept', content: { ok: true } } }]);
  });

  it('does not ask once the wait stopped', () => {
    const { bus, activate } = busWithFollows();
    const asked: string[] = [];
    const stop = new SyncQuestions(options, bus).wait(
      'q3',
      'run-3',
      () => {},
      () => asked.push('q3'),
    );
    stop();
    jest.advanceTimersByTime(FOLLOW_WAIT_MS * 2);
    activate();
    expect(asked).toEqual([]);
  });
});

/** Instances sharing a broker; one whose link is `down` hears nothing from the others, and cannot publish. */
function broker() {
  const buses: Array<{ down: boolean; handlers: Set<(e: TaskEvent) => void> }> = [];
  const sent: TaskEvent[] = [];
  const instance = () => {
    const me = { down: false, handlers: new Set<(e: TaskEvent) => void>() };
    buses.push(me);
    const bus: TaskEventBus = {
      publish: async (e) => {
        if (me.down) throw new Error('not connected');
        sent.push(e);
        for (const b of buses) if (b === me || !b.down) b.handlers.forEach((h) => h(e));
      },
      subscribe: (h) => (me.handlers.add(h), () => me.handlers.delete(h)),
      health: () => ({ connected: !me.down }),
    };
    return { bus, link: me };
  };
  return { instance, sent };
}

describe('SyncQuestions: an answer relayed to another instance', () => {
  const timed = { ...options, pollInterval: 1_000, questionTimeout: 60_000 } as ResolvedOptions;
  const YES = { result: { action: 'accept', content: { ok: true } } };
  let stops: Array<() => void>;
  beforeEach(() => {
    jest.useFakeTimers();
    stops = [];
  });
  afterEach(() => {
    stops.forEach((s) => s());
    jest.useRealTimers();
  });
  function pair() {
    const net = broker();
    const [a, b] = [net.instance(), net.instance()];
    const [onA, onB] = [new SyncQuestions(timed, a.bus), new SyncQuestions(timed, b.bus)];
    for (const q of [onA, onB]) {
      q.onModuleInit();
      stops.push(() => q.onModuleDestroy());
    }
    const answers: unknown[] = [];
    stops.push(
      onA.wait(
        'q',
        'run',
        (x) => answers.push(x),
        () => undefined,
      ),
    );
    const answered = () => net.sent.filter((e) => e.type === 'question-answered').length;
    return { net, a, onB, answers, answered };
  }

  it('reaches the asker once its link is back, within a pollInterval; no more after the receipt', async () => {
    const { a, onB, answers, answered } = pair();
    a.link.down = true;
    await onB.deliver('q', 'run', YES);
    await jest.advanceTimersByTimeAsync(3_000);
    expect(answers).toEqual([]);
    a.link.down = false;
    await jest.advanceTimersByTimeAsync(1_000);
    expect(answers).toEqual([YES]);
    const sent = answered();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(answered()).toBe(sent);
    expect(answers).toEqual([YES]);
  });

  it('is sent once when the receipt comes back at once', async () => {
    const { onB, answers, answered } = pair();
    await onB.deliver('q', 'run', YES);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(answers).toEqual([YES]);
    expect(answered()).toBe(1);
  });

  it('a receipt lost on its way: the answer sent again is acknowledged, not taken twice', async () => {
    const { a, net, onB, answers, answered } = pair();
    const publish = a.bus.publish.bind(a.bus);
    a.bus.publish = async (e) => (e.type === 'question-received' ? undefined : publish(e));
    await onB.deliver('q', 'run', YES);
    await jest.advanceTimersByTimeAsync(1_000);
    a.bus.publish = publish;
    await jest.advanceTimersByTimeAsync(1_000);
    const sent = answered();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(answered()).toBe(sent);
    expect(answers).toEqual([YES]);
    expect(net.sent.filter((e) => e.type === 'question-received').length).toBeGreaterThanOrEqual(1);
  });

  it('is given up after the questionTimeout when no instance acknowledges it (the run is gone)', async () => {
    const { a, onB, answered } = pair();
    a.link.down = true;
    await onB.deliver('q', 'run', YES);
    await jest.advanceTimersByTimeAsync(timed.questionTimeout + 2_000);
    const sent = answered();
    expect(sent).toBeGreaterThan(50);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(answered()).toBe(sent);
  });

  it('is not relayed at all when the question was asked here and waits no more (a late answer)', async () => {
    const net = broker();
    const q = new SyncQuestions(timed, net.instance().bus);
    q.onModuleInit();
    q.wait(
      'late',
      'run',
      () => undefined,
      () => undefined,
    )();
    await q.deliver('late', 'run', YES);
    await jest.advanceTimersByTimeAsync(5_000);
    expect(net.sent).toEqual([]);
    q.onModuleDestroy();
  });
});
