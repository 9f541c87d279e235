import { describe, expect, it } from '@jest/globals';
import type { TaskRecord } from '../store/task.record.js';
import { legacyOutcome, toLegacyTask } from './legacy-task.view.js';

const T0 = Date.UTC(2026, 0, 1);
const task = (over: Partial<TaskRecord> = {}): TaskRecord => ({
  id: 't1',
  owner: 'o',
  tool: 'x',
  status: 'working',
  inputRequests: {},
  inputResponses: {},
  requiredScopes: [],
  createdAt: T0,
  updatedAt: T0 + 5,
  expiresAt: T0 + 60_000,
  ...over,
});
const RELATED = 'io.modelcontextprotocol/related-task';

describe('toLegacyTask', () => {
  it('has ttl always (null when unlimited), ISO times, pollInterval only while live', () => {
    expect(toLegacyTask(task({ statusMessage: 'half' }), 250)).toEqual({
      taskId: 't1',
      status: 'working',
      statusMessage: 'half',
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUpdatedAt: '2026-01-01T00:00:00.005Z',
      ttl: 60_000,
      pollInterval: 250,
    });
    const done = toLegacyTask(task({ status: 'completed', expiresAt: null, result: { content: [] } }), 250);
    expect(done).toHaveProperty('ttl', null);
    expect(done).not.toHaveProperty('pollInterval');
  });

  it('a tool error result is failed, its text the statusMessage; a JSON-RPC error its message', () => {
    const toolError = task({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'bad' }], isError: true },
    });
    expect(toLegacyTask(toolError, 1)).toMatchObject({ status: 'failed', statusMessage: 'bad' });
    const silent = task({ status: 'completed', result: { content: [], isError: true } });
    expect(toLegacyTask(silent, 1).statusMessage).toBe('The tool reported an error');
    const rpc = task({ status: 'failed', statusMessage: 'step 2', error: { code: -1, message: 'upstream' } });
    expect(toLegacyTask(rpc, 1)).toMatchObject({ status: 'failed', statusMessage: 'upstream' });
    expect(toLegacyTask(task({ status: 'cancelled', statusMessage: 'step 2' }), 1).statusMessage).toBe('step 2');
  });
});

describe('legacyOutcome', () => {
  it("the tool's result (tool errors too) tied to the task; a failed task's error as stored; cancelled -32603", () => {
    const result = { content: [{ type: 'text', text: 'r' }], _meta: { mine: 1 } };
    expect(legacyOutcome(task({ status: 'completed', result }))).toEqual({
      result: { ...result, _meta: { mine: 1, [RELATED]: { taskId: 't1' } } },
    });
    const error = { code: -32001, message: 'no', data: { x: 1 } };
    expect(legacyOutcome(task({ status: 'failed', error }))).toEqual({ error });
    expect(legacyOutcome(task({ status: 'cancelled' }))).toEqual({
      error: { code: -32603, message: 'Task t1 was cancelled', data: { taskId: 't1', status: 'cancelled' } },
    });
  });
});
