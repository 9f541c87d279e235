import { describe, expect, it } from '@jest/globals';
import { busConfigProblem } from './bus-config.validator.js';
import { LocalTaskEventBus } from './local-task-event.bus.js';

describe('the bus option', () => {
  it('takes a bus, PostgreSQL, and Redis or NATS with a connection (a URL, options or a client)', () => {
    const client = { duplicate: () => undefined, publish: () => undefined };
    for (const ok of [
      new LocalTaskEventBus(),
      { type: 'postgres' },
      { type: 'redis', connection: 'redis://127.0.0.1:6379/2' },
      { type: 'redis', connection: { host: 'cache' }, prefix: 'app-1' },
      { type: 'redis', connection: client },
      { type: 'nats', connection: 'nats://a:4222,nats://b:4222', prefix: 'apps.one' },
    ])
      expect(busConfigProblem(ok)).toBeUndefined();
  });

  it('names the field that is wrong', () => {
    expect(busConfigProblem({ type: 'kafka' })).toContain('"postgres" | "redis" | "nats"');
    expect(busConfigProblem({ type: 'redis' })).toBe(
      'bus.connection is required for bus { type: "redis" }: a URL, client options or the app\'s own client',
    );
    expect(busConfigProblem({ type: 'nats', connection: '' })).toContain('bus.connection is required');
    expect(busConfigProblem({ type: 'nats', connection: 'localhost' })).toBe(
      'bus.connection for bus { type: "nats" } must be a URL (got "localhost")',
    );
    expect(busConfigProblem({ type: 'nats', connection: 'nats://h:1', prefix: 'a.*' })).toContain('bus.prefix');
    expect(busConfigProblem({ type: 'nats', connection: 'nats://h:1', prefix: 'a..b' })).toContain('bus.prefix');
    expect(busConfigProblem({ type: 'redis', connection: 'redis://h', prefix: '' })).toBe(
      'bus.prefix must be a non-empty string',
    );
    expect(busConfigProblem({ type: 'redis', connection: 'redis://h', prefix: 'a b' })).toContain('bus.prefix');
  });
});
