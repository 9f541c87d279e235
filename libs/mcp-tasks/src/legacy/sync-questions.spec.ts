import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { TaskEventBus } from '../events/task-event-bus.interface.js';
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
