import { describe, expect, it } from '@jest/globals';
import type { TaskPolicy } from '../decorators/mcp-tool.decorator.js';
import type { ToolDefinition } from '../discovery/tool-definition.js';
import { legacyCallVariant, legacyMode, taskParamOf, type LegacyCall } from './legacy-call.variant.js';

const tool = (policy: ToolDefinition['policy']) => ({ name: 't', policy }) as ToolDefinition;
const fn = () => 'sync' as TaskPolicy;
const on: LegacyCall = { tasks: true, tasksOn: true, serverTtl: 3_600_000, pollInterval: 250 };
const mode = (policy: ToolDefinition['policy'], resolved: TaskPolicy, call: Partial<LegacyCall>) => {
  try {
    return legacyMode(tool(policy), resolved, { ...on, ...call });
  } catch (err) {
    return (err as { code: number }).code;
  }
};

describe('legacyMode', () => {
  it.each([
    // tasks option, tasksOn, params.task, static policy, resolved → outcome
    [false, false, false, 'required', 'required', 'sync'],
    [true, false, true, 'optional', 'optional', 'sync'],
    [true, false, false, 'required', 'required', -32600],
    [true, true, false, 'sync', 'sync', 'sync'],
    [true, true, false, 'optional', 'optional', 'sync'],
    [true, true, false, 'required', 'required', -32601],
    [true, true, false, fn, 'required', -32601],
    [true, true, false, fn, 'optional', 'sync'],
    [true, true, true, 'sync', 'sync', -32601],
    [true, true, true, 'optional', 'optional', 'task'],
    [true, true, true, 'required', 'required', 'task'],
    [true, true, true, fn, 'sync', 'task'],
  ] as const)('tasks %s, 2025-11-25 %s, params.task %s, %s → %s', (tasks, tasksOn, task, policy, resolved, out) => {
    expect(mode(policy, resolved, { tasks, tasksOn, task: task ? {} : undefined })).toBe(out);
  });
});

describe('params.task and the ttl', () => {
  it('takes an object with an optional non-negative ttl; anything else is -32602', () => {
    expect(taskParamOf(undefined)).toBeUndefined();
    expect(taskParamOf({})).toEqual({});
    expect(taskParamOf({ ttl: 1500.7 })).toEqual({ ttl: 1500 });
    for (const bad of [null, 1, 'x', [], { ttl: -1 }, { ttl: 'x' }, { ttl: Infinity }])
      expect(() => taskParamOf(bad)).toThrow(expect.objectContaining({ code: -32602 }));
  });

  it("honours the client's ttl up to the server's, never under a second (or the server's own, if shorter)", () => {
    const ttl = (task: { ttl?: number } | undefined, serverTtl: number | null) =>
      legacyCallVariant({ ...on, task, serverTtl }).origin.ttl;
    expect(ttl({}, 3_600_000)).toBe(3_600_000);
    expect(ttl({ ttl: 1e12 }, 3_600_000)).toBe(3_600_000);
    expect(ttl({ ttl: 5 }, 3_600_000)).toBe(1_000);
    expect(ttl({ ttl: 5 }, 200)).toBe(200);
    expect(ttl({}, null)).toBeNull();
    expect(ttl({ ttl: 9_000 }, null)).toBe(9_000);
  });
});
