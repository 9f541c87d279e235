import { describe, expect, it } from '@jest/globals';
import { PromiseMutex } from './promise-mutex.js';

describe('PromiseMutex', () => {
  it('runs sections one at a time in call order, a failed one releasing the next', async () => {
    const mutex = new PromiseMutex();
    const log: string[] = [];
    const section =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await new Promise((r) => setTimeout(r, 5));
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([
      mutex.run(section('a')),
      mutex.run(section('b', true)),
      mutex.run(section('c')),
    ]);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('is idle only when no section waits or runs, failed ones included', async () => {
    const mutex = new PromiseMutex();
    expect(mutex.idle).toBe(true);
    let release!: () => void;
    const first = mutex.run(() => new Promise<void>((r) => (release = r)));
    const second = mutex.run(() => Promise.reject(new Error('no')));
    expect(mutex.idle).toBe(false);
    await Promise.resolve();
    release();
    await first;
    expect(mutex.idle).toBe(false);
    await expect(second).rejects.toThrow('no');
    // The release runs after the section's own settlement is seen.
    await new Promise((r) => setImmediate(r));
    expect(mutex.idle).toBe(true);
  });
});
